"""Lazy edit snippets: new text in which marker lines stand for unchanged original lines.

IDE agents write an edit as the new version of a file, or of part of it, with runs of
unchanged lines replaced by a marker comment (``// ... existing code ...``). This module
splits such a snippet into *literal runs* and *markers*; the merge that places them in
the original is the rest of :mod:`patchwright.engine.replacing.snippet`. Reading never touches the
disk.

Grammar (one line at a time; a marker is always a whole line)::

    snippet  := line*
    line     := marker | literal
    marker   := indent comment(body) trailing-blanks      (comment forms below)
              | indent bare-body trailing-blanks
    comment  := "//" body | "#" body | "--" body | ";" body | "%" body | "'" body
              | "/*" body "*/" | "<!--" body "-->" | "{/*" body "*/}" | "(*" body "*)"
              | ".." body                               (a reST comment)
    body     := ellipsis [words] [ellipsis]              (at most MAX_WORDS words)
              | words                                    (holding a KEEP_PHRASES phrase)
    bare-body:= ellipsis | "(" words ")" | ellipsis words ellipsis
    ellipsis := "..." | "…" | ". . ." | "[...]" | "[…]" | "(...)"

``words`` are at most :data:`MAX_WORDS` words. Leniencies, each because models write it:

* any comment syntax, repeated (``##``, ``///``), at any indentation: the file's own
  comment syntax is not known here and models indent markers like the lines they hide;
* wordings beyond "existing code" (:data:`KEEP_PHRASES`: "rest of the function
  unchanged", "keep existing imports", "same as before", "(unchanged)"...);
* a bare ``...`` or ``[...]`` line: models drop the comment delimiters. (A bare
  ``...`` indented below a line ending in ``:`` is Python's Ellipsis body, literal.)

A line that also stands in the original file (compared without its outer blanks) is a
literal line whatever it looks like: a Python ``...`` body or a comment that really says
"unchanged" is kept as text, never read as a marker.
"""

from __future__ import annotations

import re
from collections.abc import Container

from patchwright._records import record

__all__ = [
    "COMMENT_FORMS",
    "ELLIPSES",
    "KEEP_PHRASES",
    "MAX_WORDS",
    "Piece",
    "Snippet",
    "is_marker",
    "marker_body",
    "parse_snippet",
]

#: Comment delimiters a marker may be written in: (opening, closing). Longest first, so
#: ``<!--`` is tried before ``--`` and ``{/*`` before ``/*``.
COMMENT_FORMS: tuple[tuple[str, str], ...] = (
    ("<!--", "-->"),
    ("{/*", "*/}"),
    ("/*", "*/"),
    ("(*", "*)"),
    ("//", ""),
    ("--", ""),
    ("..", ""),
    ("#", ""),
    (";", ""),
    ("%", ""),
    ("'", ""),
)

#: Ways models write "lines left out here".
ELLIPSES: tuple[str, ...] = ("[...]", "[…]", "(...)", ". . .", "...", "…")

#: Phrases that make a comment a marker without an ellipsis ("# rest of the function
#: unchanged"): each is a regular expression matched against the lower-cased words.
KEEP_PHRASES: tuple[str, ...] = (
    r"^(the |all )?(existing|unchanged|unmodified|remaining|previous|original|other|"
    r"same) (code|lines?|content|implementation|methods?|functions?|imports?|fields?|"
    r"tests?|cases?|logic|body|properties|styles|rules|config|settings|routes|"
    r"handlers|members|definitions|exports|text|markup|sections?)\b",
    r"^(the )?rest( of\b|$)",
    r"\b(unchanged|unmodified|omitted|as before|(stays?|remains?) the same|no changes?)$",
    r"^(keep|keeps|kept) (the )?(rest|remaining|other|everything|all|as is|existing|"
    r"original|previous|old)\b",
    r"^same( as (before|above|original|existing))?$",
    r"^(snip|snipped|etc)$",
    r"^existing$",
)

#: Words a marker's body may hold at most: a longer comment is prose, not a marker.
MAX_WORDS = 10

_PHRASES = re.compile("|".join(f"(?:{p})" for p in KEEP_PHRASES))
_ELLIPSIS_ONLY = re.compile(r"^(?:\[\s*(?:\.\.\.|…)\s*\]|\(\s*\.\.\.\s*\)|(?:\.\s?){3,}|…+)$")
_WORD = re.compile(r"[^\W_]+(?:['’-][^\W_]+)*")


@record(frozen=True)
class Piece:
    """A run of literal lines, or one marker line, of a snippet.

    Attributes:
        marker: whether this piece is a marker (then ``lines`` holds its one line).
        start: 0-based number of its first line in the snippet.
        lines: the lines' contents, without their endings.
    """

    marker: bool
    start: int
    lines: tuple[str, ...]

    @property
    def end(self) -> int:
        """0-based number of the snippet line after this piece."""
        return self.start + len(self.lines)


@record(frozen=True)
class Snippet:
    """A parsed snippet: its pieces in order (markers never adjacent to each other's
    runs: consecutive marker lines are one marker piece each, literal runs are maximal).

    Attributes:
        pieces: literal runs and markers, in snippet order.
        lines: every snippet line, without endings.
    """

    pieces: tuple[Piece, ...]
    lines: tuple[str, ...]

    @property
    def markers(self) -> int:
        """How many marker lines the snippet has."""
        return sum(1 for p in self.pieces if p.marker)

    @property
    def top_marker(self) -> bool:
        """Whether the snippet opens with a marker."""
        return bool(self.pieces) and self.pieces[0].marker

    @property
    def bottom_marker(self) -> bool:
        """Whether the snippet closes with a marker."""
        return bool(self.pieces) and self.pieces[-1].marker


def _strip_ellipses(text: str) -> tuple[str, int]:
    """``text`` without ellipses at its ends, and how many were removed."""
    count = 0
    changed = True
    while changed and text:
        changed = False
        for e in ELLIPSES:
            if text.startswith(e):
                text, count, changed = text[len(e) :].strip(), count + 1, True
            if text.endswith(e):
                text, count, changed = text[: -len(e)].strip(), count + 1, True
    return text, count


def _is_body(body: str, *, bare: bool) -> bool:
    """Whether the text inside a comment (or a bare line) is a marker's wording."""
    body = body.strip()
    if not body:
        return False
    if _ELLIPSIS_ONLY.match(body):
        return True
    paren = body.startswith("(") and body.endswith(")")
    if paren:
        body = body[1:-1].strip()
    words_text, ellipses = _strip_ellipses(body)
    words = _WORD.findall(words_text)
    if len(words) > MAX_WORDS or (not words and not ellipses):
        return False
    if not words:
        return True
    if any(not (_WORD.fullmatch(w) or w in ",.:;!?") for w in _tokens(words_text)):
        return False  # code inside (``x = ...``): not a marker's wording
    phrase = _PHRASES.search(" ".join(words).lower()) is not None
    if bare:
        # without comment delimiters only the shapes models use: "(unchanged)", or
        # words between two ellipses ("... existing code ...")
        return (paren and phrase) or (ellipses >= 2 and len(words) <= 6)
    return ellipses > 0 or phrase


def _tokens(text: str) -> list[str]:
    return re.findall(r"[^\W_]+(?:['’-][^\W_]+)*|[^\w\s]", text)


def marker_body(line: str) -> str | None:
    """The wording of a marker line (what its comment says), or ``None`` when the line
    is not shaped like a marker. Does not know the original file: see :func:`is_marker`."""
    text = line.strip()
    if not text or len(text) > 120:
        return None
    for opening, closing in COMMENT_FORMS:
        if not text.startswith(opening):
            continue
        inner = text[len(opening) :]
        if opening == ".." and inner.startswith("."):
            continue  # "..." itself, read below as a bare ellipsis
        if closing:
            if not inner.endswith(closing):
                continue
            inner = inner[: -len(closing)]
        # repeated delimiters (``##``, ``///``, ``---``) and a doc-comment star
        inner = inner.lstrip(opening[-1] if not closing else "*").strip()
        if _is_body(inner, bare=False):
            return inner
    if _is_body(text, bare=True):
        return text
    return None


def is_marker(line: str, original: Container[str] = ()) -> bool:
    """Whether ``line`` is a marker: shaped like one and not a line of the original
    (``original`` holds the original's lines without their outer blanks)."""
    return marker_body(line) is not None and line.strip() not in original


def _python_body(lines: list[str], i: int) -> bool:
    """Whether line ``i`` is a bare ``...`` right below a line opening a block with
    ``:``: Python's Ellipsis as a body (a stub or protocol method), not a marker."""
    if lines[i].strip() != "...":
        return False
    above = next((line for line in reversed(lines[:i]) if line.strip()), "")
    return above.rstrip().endswith(":") and len(lines[i]) - len(lines[i].lstrip()) > len(
        above
    ) - len(above.lstrip())


def placeholder_lines(lines: list[str], original: Container[str] = ()) -> list[int]:
    """The indexes of ``lines`` that are markers standing for lines: marker-shaped, not a
    line of ``original``, and not Python's Ellipsis as a block's body."""
    return [
        i
        for i, line in enumerate(lines)
        if is_marker(line, original) and not _python_body(lines, i)
    ]


def new_file_placeholders(lines: list[str]) -> list[int]:
    """:func:`placeholder_lines` of a file's text when the file has no lines yet: there
    is nothing a placeholder could stand for, and a bare ellipsis is common real text
    there (a docstring's elided example, YAML's document end), so only worded markers
    ("existing code") count."""
    return [i for i in placeholder_lines(lines) if lines[i].strip() not in ELLIPSES]


def parse_snippet(text: str, original: Container[str] = ()) -> Snippet:
    """Split a snippet into literal runs and markers.

    Args:
        text: the snippet (any line endings).
        original: the original file's lines without their outer blanks (a set): a line
            among them is literal even when shaped like a marker.
    """
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    pieces: list[Piece] = []
    run: list[str] = []
    run_start = 0
    markers = set(placeholder_lines(lines, original))
    for i, line in enumerate(lines):
        if i in markers:
            if run:
                pieces.append(Piece(False, run_start, tuple(run)))
                run = []
            pieces.append(Piece(True, i, (line,)))
            run_start = i + 1
        else:
            if not run:
                run_start = i
            run.append(line)
    if run:
        pieces.append(Piece(False, run_start, tuple(run)))
    return Snippet(tuple(pieces), tuple(lines))
