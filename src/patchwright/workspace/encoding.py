"""Reading files that are not UTF-8: the encoding detected, or named by the caller.

:func:`decode_file` is how every layer above turns a file's bytes into a
:class:`~patchwright.model.TextFile`. UTF-8 (with or without BOM) and UTF-16 with a BOM
or without one are decided by the text model itself, without any detection; only bytes
that are none of these reach :func:`detect_encoding`, which asks ``charset-normalizer``
(imported then, never on the way of a UTF-8 file) and decides only when the readings it
finds likely agree. A file that is UTF-8 but for a few bytes (at most one sequence in
ten characters beyond ASCII, which a legacy encoding's text never is) mixes encodings
and is refused first, naming the first such byte. Only the readings in encodings that
source files are written in count (the Windows and ISO code pages, KOI8, ``cp866``,
Thai, and the Japanese, Chinese and Korean encodings; the other Mac, DOS and EBCDIC ones
are read when named), and not a reading that needs a vendor extension for most of its
characters (Japanese read as ``cp949`` gives almost nothing but Hangul of its extension,
and may still be the reading charset-normalizer finds least chaotic). Then:

1. every reading about as likely as the best one gives the same text (``cp1252`` and
   ``latin-1`` on French text, ``cp932`` and ``shift_jis`` on Japanese): that text;
2. else one of those readings has its language recognised and no other has: that one;
3. else one reading keeps within a standard encoding and the others need a vendor
   extension of one (Japanese read as ``cp949`` gives rare Hangul of its extension,
   which ``euc_kr`` cannot decode): that one;
4. else the high bytes stand alone between ASCII bytes (at least half of their runs,
   none longer than three bytes), the way accented letters of a Western European
   language do (``café``): Windows-1252 when bytes 0x80-0x9F occur (``€``, curly
   quotes), else ISO-8859-1; and whichever rule decided, text this rule reads the same
   is named as it names it (French that ``cp1250`` reads alike is ``cp1252``);
5. else the file is refused with each candidate reading of its first non-ASCII line,
   so the caller can name the right one (the ``encoding`` field, ``--encoding``).

A detected superset is named by its standard subset when that decodes the file the
same way (``cp932`` as ``shift_jis``, ``gb18030`` as ``gbk``, ``cp949`` as ``euc_kr``):
new text the standard cannot hold is then refused instead of written in bytes other
programs would misread.
"""

from __future__ import annotations

import re

from patchwright.model import ErrorCode, PatchwrightError, TextFile
from patchwright.model.encoding import DEFAULT_NEXT_STEP, EXAMPLES

# chaos (charset-normalizer's "mess" ratio) within which two readings count as tied
_TIED = 0.05
# a recognised language (coherence) that wins over readings without one
_COHERENT = 0.5
_HIGH_RUN = re.compile(rb"[\x80-\xff]+")
_HIGH_BYTES = bytes(range(0x80, 0x100))
# detected name -> the standard subset tried first (same text: the subset's name)
_NARROWER = {
    "cp932": "shift_jis",
    "shift_jis_2004": "shift_jis",
    "gb18030": "gbk",
    "gb2312": "gbk",
    "cp949": "euc_kr",
    "latin_1": "iso8859-1",
    "windows-1252": "cp1252",
}
_CANDIDATES_SHOWN = 4
# UTF-8 characters beyond ASCII from which a few bytes that are not UTF-8 mean "mixed"
_MIXED_MIN = 5
# bytes of a large file's lines that detection reads
_SAMPLE = 1 << 16
# the encodings detection considers: those source files and text are written in. The
# other Mac, DOS and EBCDIC code pages read short Western text as well as Windows-1252
# does (French read as mac_latin2), so they are only read when named.
_DETECTED = (
    *(f"cp{n}" for n in range(1250, 1259)),
    "latin_1",
    *(f"iso8859_{n}" for n in (2, 3, 4, 5, 6, 7, 8, 9, 10, 13, 14, 15, 16)),
    "koi8_r",
    "koi8_u",
    "cp866",
    "cp874",
    "tis_620",
    "shift_jis",
    "cp932",
    "shift_jis_2004",
    "euc_jp",
    "euc_jis_2004",
    "gb2312",
    "gbk",
    "gb18030",
    "big5",
    "big5hkscs",
    "cp950",
    "euc_kr",
    "cp949",
)
# share of a reading's distinct characters beyond ASCII that may need the extension
_EXTENDED_MAX = 0.5


def decode_file(data: bytes, path: str | None = None, *, encoding: str | None = None) -> TextFile:
    """``data`` decoded (see the module docstring); ``encoding`` names the codec of a
    file that is neither UTF-8 nor UTF-16 (a BOM, or valid UTF-8, still decides).

    Raises:
        PatchwrightError: the text model's refusals (``binary_file``, ``encoding``), and
            ``encoding`` when the encoding cannot be told for sure.
    """
    return TextFile.decode(data, path=path, encoding=encoding, detect=detect_encoding)


def detect_encoding(data: bytes, path: str | None = None) -> str:
    """The codec of ``data``, bytes that are not UTF-8 (see the module docstring).

    Raises:
        PatchwrightError: ``encoding`` naming the candidate readings when unsure.
    """
    _refuse_mixed(data, path)
    from charset_normalizer import from_bytes  # only files that are not UTF-8 need it

    sample = _sample(data)
    # (filtered after the search: isolating these encodings in it changes which ones it
    # tries, and brings single-byte readings of Japanese into the tie)
    found = [m for m in from_bytes(sample) if m.encoding in _DETECTED]
    # a reading that needs its encoding's vendor extension for most of its characters is
    # another script's bytes (Japanese read as cp949): it decides nothing, though its
    # chaos may be the lowest and put the right reading out of the tie
    matches = [m for m in found if _plausible(m.encoding, str(m))] or found
    best = min((match.chaos for match in matches), default=0.0)
    readings: list[tuple[str, str, float, float]] = []  # codec, text, chaos, coherence
    for match in matches:
        if match.chaos <= best + _TIED:  # the unlikely ones are never decoded whole
            text = str(match)
            codec = _narrow(match.encoding, sample, text)
            readings.append((codec, text, match.chaos, match.coherence))
    chosen = _agreed(readings) or _coherent(readings) or _standard(readings)
    western = _western(sample)
    if chosen is None or (western is not None and _same_text(sample, chosen, western)):
        # the Western name when it reads the same (cp1250 reads French that has no
        # letter where the two differ): what it holds decides what an edit may add
        chosen = western
    if chosen is not None:
        return chosen
    raise _unsure(data, path, readings)


def _refuse_mixed(data: bytes, path: str | None) -> None:
    """Refuse a UTF-8 file with a few bytes in another encoding (an ``é`` pasted from a
    Latin-1 file): no single encoding reads it, and reading it in one that decodes it
    all would show its UTF-8 characters garbled and write new ones in that encoding."""
    text = data.decode("utf-8", "replace")
    bad = text.count("\ufffd")
    ascii_bytes = len(data.translate(None, _HIGH_BYTES))  # one ASCII character each
    good = len(text) - bad - ascii_bytes
    if good < _MIXED_MIN or bad * 10 > good:
        return
    first = _first_bad(data)
    where = f"{path} " if path else "The file "
    raise PatchwrightError(
        ErrorCode.ENCODING,
        f"{where}is UTF-8 ({good} characters beyond ASCII) except for {bad} byte "
        f"sequence(s) that are not, the first at byte {first}: it mixes encodings, which "
        "no single encoding reads.",
        "Rewrite those bytes in UTF-8 (the file's other characters are), or, if the whole "
        f"file is in another encoding, {DEFAULT_NEXT_STEP} {EXAMPLES}.",
        path=path,
        details={"reason": "mixed", "byte": first},
    )


def _first_bad(data: bytes) -> int:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc.start
    return 0


def _sample(data: bytes) -> bytes:
    """``data`` itself, or for a large file its first lines that hold high bytes, about
    :data:`_SAMPLE` bytes of them: what tells encodings apart, read in bounded time
    (the whole file is then decoded and checked with the encoding chosen). Lines are
    cut at LF bytes, never part of a character in the encodings detected here."""
    if len(data) <= _SAMPLE:
        return data
    parts: list[bytes] = []
    size = end = 0
    while size < _SAMPLE:
        found = _HIGH_RUN.search(data, end)
        if found is None:
            break
        start = data.rfind(b"\n", 0, found.start()) + 1
        end = data.find(b"\n", found.end())
        end = len(data) if end == -1 else end + 1
        parts.append(data[start:end])
        size += end - start
    return b"".join(parts)


def _narrow(codec: str, data: bytes, text: str) -> str:
    narrower = _NARROWER.get(codec)
    if narrower is not None:
        try:
            if data.decode(narrower) == text:
                return narrower
        except UnicodeDecodeError:
            pass
    return codec


def _plausible(codec: str, text: str) -> bool:
    """Whether ``text``, read in the vendor superset ``codec``, keeps mostly within the
    standard it extends: Korean in cp949 uses a rare syllable of the extension now and
    then; Japanese read as cp949 gives almost nothing but such syllables."""
    narrower = _NARROWER.get(codec)
    if narrower is None:
        return True
    wide = {c for c in set(text) if not c.isascii()}
    extended = sum(1 for char in wide if not _standard_char(char, codec, narrower))
    return extended <= len(wide) * _EXTENDED_MAX


def _standard_char(char: str, codec: str, narrower: str) -> bool:
    """Whether ``narrower`` writes ``char`` with the bytes ``codec`` reads it from (not
    Python's euc_kr, which spells a syllable outside KS X 1001 in eight bytes)."""
    try:
        return char.encode(narrower) == char.encode(codec)
    except UnicodeEncodeError:
        return False


def _same_text(data: bytes, codec: str, other: str) -> bool:
    """Whether ``other`` decodes ``data`` as ``codec`` does."""
    try:
        return codec == other or data.decode(other) == data.decode(codec)
    except UnicodeDecodeError:
        return False


def _tied(readings: list[tuple[str, str, float, float]]) -> list[tuple[str, str, float, float]]:
    """The readings about as likely as the best one."""
    best = min((chaos for _, _, chaos, _ in readings), default=0.0)
    return [r for r in readings if r[2] <= best + _TIED]


def _agreed(readings: list[tuple[str, str, float, float]]) -> str | None:
    """The best reading when every reading as likely gives the same text."""
    tied = _tied(readings)
    texts = {text for _, text, _, _ in tied}
    if len(texts) == 1:
        return tied[0][0]
    return None


def _coherent(readings: list[tuple[str, str, float, float]]) -> str | None:
    """The likely reading whose language was recognised, when no other one's was."""
    coherent = [r for r in _tied(readings) if r[3] >= _COHERENT]
    if coherent and len({text for _, text, _, _ in coherent}) == 1:
        return coherent[0][0]
    return None


def _standard(readings: list[tuple[str, str, float, float]]) -> str | None:
    """The one likely reading within a standard encoding, when the others need an
    extension (their codec is a superset that could not be narrowed)."""
    tied = _tied(readings)
    standard = [r for r in tied if r[0] not in _NARROWER]
    if standard and len(standard) < len(tied) and len({r[1] for r in standard}) == 1:
        return standard[0][0]
    return None


def _western(data: bytes) -> str | None:
    """Windows-1252 or ISO-8859-1 when the high bytes stand (mostly) alone."""
    runs = _HIGH_RUN.findall(data)
    if not runs or any(len(run) > 3 for run in runs):
        return None
    # accented letters stand alone ("café"); a character of a double-byte encoding is a
    # pair; a letter beside a curly quote or guillemet ("l’été") makes a pair too
    alone = sum(1 for run in runs if len(run) == 1)
    if alone * 2 < len(runs):
        return None
    if any(0x80 <= b <= 0x9F for run in runs for b in run):
        try:
            data.decode("cp1252")
        except UnicodeDecodeError:
            return None  # 0x81, 0x8D, 0x8F, 0x90, 0x9D: no Windows-1252 text
        return "cp1252"
    return "iso8859-1"


def _unsure(
    data: bytes, path: str | None, readings: list[tuple[str, str, float, float]]
) -> PatchwrightError:
    where = f"{path} " if path else "The file "
    at = _HIGH_RUN.search(data)
    line_no = data.count(b"\n", 0, at.start() if at else 0) + 1
    shown: list[str] = []
    candidates: list[str] = []
    for codec, text, _, _ in _tied(readings):
        if codec in candidates:
            continue
        candidates.append(codec)
        if len(shown) < _CANDIDATES_SHOWN:
            # the first line read with a character that is not ASCII (that line in
            # the file, and the first line of a large file's sample)
            line = next((ln for ln in text.split("\n") if not ln.isascii()), "")
            shown.append(f"{codec}: {line.strip()[:60]!r}")
    readings_text = f" Line {line_no} reads as {'; '.join(shown)}." if shown else ""
    return PatchwrightError(
        ErrorCode.ENCODING,
        f"{where}is not UTF-8, and its encoding cannot be told for sure.{readings_text}",
        f"To read it, {DEFAULT_NEXT_STEP} {EXAMPLES}: the one whose reading is right.",
        path=path,
        details={"reason": "unsure", "candidates": candidates},
    )
