"""Line normalisations used by the rungs of the matching ladder.

Each normalisation only decides *where* an anchor is; the file's own bytes are never
replaced by the normalised form.
"""

from __future__ import annotations

import re

# Typographic punctuation models paste (or "smarten") mapped to what code usually has.
_PUNCT = {
    "\u2018": "'",  # left single quote
    "\u2019": "'",  # right single quote / apostrophe
    "\u201a": "'",
    "\u201b": "'",
    "\u2032": "'",  # prime
    "\u201c": '"',
    "\u201d": '"',
    "\u201e": '"',
    "\u201f": '"',
    "\u2033": '"',
    "\u00ab": '"',
    "\u00bb": '"',
    "\u2010": "-",  # hyphen
    "\u2011": "-",  # non-breaking hyphen
    "\u2012": "-",  # figure dash
    "\u2013": "-",  # en dash
    "\u2014": "-",  # em dash
    "\u2212": "-",  # minus sign
    "\u00a0": " ",  # no-break space
    "\u2007": " ",
    "\u2009": " ",
    "\u200a": " ",
    "\u202f": " ",
    "\u3000": " ",
    "\u200b": "",  # zero-width space
    "\ufeff": "",  # stray BOM
    "\u2026": "...",  # ellipsis
}
PUNCT_TABLE = str.maketrans(_PUNCT)
# runs of blanks (spaces and tabs) that collapse to one space: a single space is one
# already, and matching it too costs a match for every word of a large text
_BLANK_RUNS = re.compile(r"[ \t]{2,}|\t")
_NUMBER_PREFIX = re.compile(r"^\s*(\d+)(?:\t|\u2192| \| |\|)")
ELISION_MARKERS = frozenset({"...", "…", "# ...", "// ...", "/* ... */", "<!-- ... -->"})


def rstrip_key(line: str) -> str:
    """Key for the trailing-whitespace rung."""
    return line.rstrip()


def strip_key(line: str) -> str:
    """Key for the indentation rung (leading and trailing whitespace ignored)."""
    return line.strip()


def unicode_key(line: str) -> str:
    """Key for the unicode rung: typographic punctuation folded, runs of blanks collapsed.

    The same as ``re.sub(r"[ \\t]+", " ", line.translate(PUNCT_TABLE)).strip()``, which
    the fuzzy rung computes for every line of a file: an ASCII line has nothing to fold,
    and the blanks at the ends go with the strip, so only a line with a tab or two
    blanks in a row inside it needs the substitution.
    """
    if not line.isascii():
        line = line.translate(PUNCT_TABLE)
    key = line.strip()
    if "\t" in key or "  " in key:
        return _BLANK_RUNS.sub(" ", key)
    return key


def fold_text(text: str) -> str:
    """Many lines at once as the unicode rung sees them (punctuation folded, runs of
    blanks collapsed), newlines kept, so its keys can be searched in it. Leading and
    trailing blanks stay (a single one): keys are found as substrings."""
    folded = text if text.isascii() else text.translate(PUNCT_TABLE)
    return _BLANK_RUNS.sub(" ", folded)


def has_unicode_punct(text: str) -> bool:
    """Whether ``text`` contains a character the unicode rung folds."""
    return text != text.translate(PUNCT_TABLE)


def is_blank(line: str) -> bool:
    """Whether the line holds only whitespace."""
    return not line.strip()


def is_elision(line: str) -> bool:
    """Whether a pattern line stands for omitted lines (``...`` and its commented forms)."""
    return line.strip() in ELISION_MARKERS


def leading(line: str) -> str:
    """The leading whitespace of ``line``."""
    return line[: len(line) - len(line.lstrip(" \t"))]


def indent_width(indent: str, tab: int) -> int:
    """Display width of an indentation string with tab stops every ``tab`` columns."""
    width = 0
    for ch in indent:
        width = (width // tab + 1) * tab if ch == "\t" else width + 1
    return width


def strip_line_numbers(lines: list[str]) -> list[str] | None:
    """Remove ``read_file``-style number prefixes when *every* non-empty line has one.

    Returns the stripped lines, or ``None`` when the lines are not numbered (models paste
    ``"  12\\tcode"`` or ``"12→code"`` from numbered views).
    """
    if not lines:
        return None
    out: list[str] = []
    previous: int | None = None
    for line in lines:
        match = _NUMBER_PREFIX.match(line)
        if match is None:
            return None
        number = int(match.group(1))
        # Consecutive numbers only: a column of arbitrary numbers is content, not a view.
        if previous is not None and number != previous + 1:
            return None
        previous = number
        out.append(line[match.end() :])
    return out


def strip_number_prefixes(lines: list[str]) -> list[str] | None:
    """Remove ``read_file``-style number prefixes when every non-blank line has one.

    For the new text of an edit whose search text was numbered: the model pasted from
    the same numbered view, and lines it added carry whatever numbers it made up, so
    the numbers need not be consecutive. Blank lines are kept as they are. Returns
    ``None`` when some non-blank line has no prefix (or no line has one).
    """
    out: list[str] = []
    seen = False
    for line in lines:
        match = _NUMBER_PREFIX.match(line)
        if match is None:
            if line.strip():
                return None
            out.append(line)
            continue
        seen = True
        out.append(line[match.end() :])
    return out if seen else None
