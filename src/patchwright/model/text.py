"""Byte-faithful text model: file bytes <-> lines that remember their own endings.

A file is decoded once into a :class:`TextFile`: its encoding and BOM, and a list of
lines, each with its own newline (``"\\n"``, ``"\\r\\n"``, ``"\\r"``, or ``""`` for a last
line without one). Encoding an unchanged model gives back the identical bytes, so an
edit only changes the lines it replaces.
"""

from __future__ import annotations

import codecs
import re
from _weakref import ref
from collections.abc import Callable, Iterable, Sequence

from patchwright._records import field, record
from patchwright.model.encoding import (
    DEFAULT_NEXT_STEP,
    EXAMPLES,
    binary,
    codec_name,
    control_bytes,
    decode_as,
    encode_text,
    utf16_without_bom,
)
from patchwright.model.errors import ErrorCode, PatchwrightError

LF = "\n"
CRLF = "\r\n"
CR = "\r"

# Lines encoded per piece by TextFile.encode_releasing: few pieces, each cheap to join.
_PIECE = 16_384
# Bytes decoded per piece by TextFile.decode (larger files only).
_DECODE_PIECE = 1 << 20
_LINE_RE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n|$)")
# BOMs we accept (UTF-32 is refused first: its LE BOM starts with the UTF-16-LE one).
_UTF32_BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF32_LE, "UTF-32-LE"),
    (codecs.BOM_UTF32_BE, "UTF-32-BE"),
)
_BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)


def split_lines(text: str) -> tuple[list[str], list[str]]:
    """Split ``text`` into line contents and their endings.

    ``"a\\r\\nb"`` gives ``(["a", "b"], ["\\r\\n", ""])``; ``""`` gives ``([], [])``.
    """
    if not text:
        return [], []
    if "\r" not in text:
        # Fast path: LF-only text (by far the most common).
        parts = text.split("\n")
        if parts[-1] == "":
            parts.pop()
            return parts, [LF] * len(parts)
        fast = [LF] * len(parts)
        fast[-1] = ""
        return parts, fast
    lines: list[str] = []
    endings: list[str] = []
    for match in _LINE_RE.finditer(text):
        chunk = match.group()
        if not chunk:
            break
        if chunk.endswith(CRLF):
            lines.append(chunk[:-2])
            endings.append(CRLF)
        elif chunk.endswith((LF, CR)):
            lines.append(chunk[:-1])
            endings.append(chunk[-1])
        else:
            lines.append(chunk)
            endings.append("")
    return lines, endings


def diff_rows(text: str, *, keepends: bool = False) -> list[str]:
    """The rows of a diff or patch text: the one splitter for every diff, stat and display.

    A diff row ends at ``"\\n"`` only. That is where the text model ends a line: a file
    line ending in CRLF or in a lone CR is rendered as a row ending ``"\\r\\n"`` (see
    :func:`patchwright.engine.diff.unified_diff`), so the CR belongs to the row and is
    dropped with its ``"\\n"`` unless ``keepends``. Form feeds, vertical tabs, NEL,
    U+2028 and the other breaks ``str.splitlines`` knows are content, as they are in the
    file: an added ``x = 1<FF>-y`` is one added row, never an added and a removed one.
    """
    if not text:
        return []
    if keepends:
        rows = text.split("\n")
        last = rows.pop()
        out = [row + "\n" for row in rows]
        if last:
            out.append(last)
        return out
    rows = text.split("\n")
    if rows[-1] == "":
        rows.pop()
    if "\r" in text:
        rows = [row[:-1] if row.endswith("\r") else row for row in rows]
    return rows


@record
class TextFile:
    """A decoded text file.

    Attributes:
        lines: line contents, without their endings.
        endings: one ending per line; only the last may be ``""``.
        encoding: the codec used to encode back (``utf-8``, ``utf-8-sig``, ``utf-16-le``...).
        bom: the BOM bytes written before the text (empty for none).
    """

    lines: list[str] = field(default_factory=list)
    endings: list[str] = field(default_factory=list)
    encoding: str = "utf-8"
    bom: bytes = b""
    # Computed once: the engine treats a model as immutable (edits build new ones).
    _newline: str | None = field(default=None, init=False, repr=False, compare=False)
    # Set by the engine (mark_spliced): the text this one was spliced from, held weakly,
    # and the blocks replaced; every other line is that text's own, ending included.
    _spliced: tuple[ref[TextFile], list[tuple[int, int, int, int]]] | None = field(
        default=None, init=False, repr=False, compare=False
    )

    # construction -------------------------------------------------------------------------
    @classmethod
    def from_text(cls, text: str, *, encoding: str = "utf-8", bom: bytes = b"") -> TextFile:
        """Build a model from already decoded text (keeps every ending as written)."""
        lines, endings = split_lines(text)
        return cls(lines, endings, encoding, bom)

    @classmethod
    def decode(
        cls,
        data: bytes,
        *,
        path: str | None = None,
        encoding: str | None = None,
        detect: Callable[[bytes, str | None], str] | None = None,
    ) -> TextFile:
        """Decode file bytes, refusing binary data and encodings that do not round-trip.

        A BOM decides the encoding (unless the bytes after it are not valid in it and
        the caller named an encoding); else UTF-8 (the fast path), else UTF-16 without a
        BOM (told by its NUL bytes), else ``encoding`` when the caller named one, else
        what ``detect(data, path)`` names (it raises when it cannot tell). A file not
        in UTF-8 is taken only if its text encodes back to the very same bytes.

        Raises:
            PatchwrightError: ``encoding`` for UTF-32 (either BOM), for bytes that are not
                UTF-8 when no encoding is named or detected, and for an encoding that
                does not decode the bytes or does not give them back; ``binary_file``
                for NUL characters (whatever the encoding) or control bytes.
        """
        for bom, name in _UTF32_BOMS:
            if data.startswith(bom):
                raise _unsupported_encoding(path, name)
        for bom, codec in _BOMS:
            if data.startswith(bom):
                try:
                    return cls._decode_bom(data, bom, codec, path)
                except PatchwrightError:
                    if encoding is None:
                        raise
                    # no text in that encoding: its first bytes only look like the BOM
                    # (Latin-1 text starting "ÿþ"), and the caller said what it is
                    return cls._decode_named(data, path, encoding)
        if b"\x00" not in data:
            decoded = (
                cls._decode_utf8_pieces(data)
                if len(data) > _DECODE_PIECE
                else cls._decode_utf8(data)
            )
            if isinstance(decoded, TextFile):
                return decoded
            return cls._decode_legacy(data, path, encoding, detect, decoded)
        utf16 = utf16_without_bom(data)
        if utf16 is not None:
            return cls.from_text(decode_as(data, utf16, path), encoding=utf16)
        if encoding is not None:
            return cls._decode_named(data, path, encoding)
        err = binary(path, "it contains NUL bytes")
        err.hint += (
            f" If it is UTF-16 text without a BOM, {DEFAULT_NEXT_STEP}: utf-16-le or utf-16-be."
        )
        raise err

    @classmethod
    def _decode_bom(cls, data: bytes, bom: bytes, codec: str, path: str | None) -> TextFile:
        body = data[len(bom) :]
        name = "utf-8" if codec == "utf-8-sig" else codec
        try:
            text = body.decode(name)
        except UnicodeDecodeError as exc:
            err = binary(path, f"it starts with a {codec} BOM but is not valid {codec}")
            err.hint += f" If it is text in an encoding without a BOM, {DEFAULT_NEXT_STEP}."
            raise err from exc
        # A BOM says "text" but NULs still mean binary (or a mislabelled file).
        if "\x00" in text:
            raise binary(path, "it contains NUL characters")
        return cls.from_text(text, encoding=name, bom=bom)

    @classmethod
    def _decode_utf8(cls, data: bytes) -> TextFile | int:
        """The UTF-8 model, or the offset of the first byte that is not UTF-8."""
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            return exc.start
        return cls.from_text(text)

    @classmethod
    def _decode_legacy(
        cls,
        data: bytes,
        path: str | None,
        encoding: str | None,
        detect: Callable[[bytes, str | None], str] | None,
        bad_byte: int,
    ) -> TextFile:
        """Bytes that are not UTF-8 (``bad_byte`` the first offending offset)."""
        if encoding is not None:
            return cls._decode_named(data, path, encoding)
        controls = control_bytes(data)
        if controls * 100 > len(data):
            raise binary(path, f"it is not UTF-8 and holds {controls} control bytes")
        if detect is None:
            where = f"{path} " if path else "The file "
            raise PatchwrightError(
                ErrorCode.ENCODING,
                f"{where}is not UTF-8 (byte {bad_byte}) and no encoding was named for it.",
                f"To read it, {DEFAULT_NEXT_STEP} {EXAMPLES}.",
                path=path,
                details={"reason": "undetected", "byte": bad_byte},
            )
        codec = detect(data, path)
        return cls.from_text(decode_as(data, codec, path), encoding=codec)

    @classmethod
    def _decode_named(cls, data: bytes, path: str | None, encoding: str) -> TextFile:
        codec = codec_name(encoding)
        return cls.from_text(decode_as(data, codec, path, named=True), encoding=codec)

    @classmethod
    def _decode_utf8_pieces(cls, data: bytes) -> TextFile | int:
        """:meth:`decode` of a large UTF-8 file a piece at a time, each cut after a LF
        byte (never inside a character, nor between the CR and LF of a CRLF): the whole
        decoded text never exists beside the bytes and the lines, which keeps the peak
        memory of a large file near its lines alone. Not UTF-8: the offset of the first
        byte that is not."""
        lines: list[str] = []
        endings: list[str] = []
        start, size = 0, len(data)
        view = memoryview(data)  # pieces decoded in place, not copied out first
        while start < size:
            cut = data.find(b"\n", min(start + _DECODE_PIECE, size) - 1)
            end = size if cut == -1 else cut + 1
            try:
                piece = str(view[start:end], "utf-8")
            except UnicodeDecodeError as exc:
                return start + exc.start
            more, ends = split_lines(piece)
            del piece
            lines += more
            endings += ends
            start = end
        return cls(lines, endings)

    # views ----------------------------------------------------------------------------------
    @property
    def text(self) -> str:
        """The whole text with every original ending (no BOM)."""
        endings = self.endings
        n = len(endings)
        if n:
            # Uniform endings (the usual case) join at C speed.
            for nl in (LF, CRLF):
                full = endings.count(nl)
                if full == n or (full == n - 1 and endings[-1] == ""):
                    return nl.join(self.lines) + (nl if full == n else "")
        return "".join([line + end for line, end in zip(self.lines, endings)])

    def encode(self) -> bytes:
        """Encode back to bytes; an unchanged model gives the original bytes."""
        return self.bom + encode_text(self.text, self.encoding)

    def encode_releasing(self) -> bytes:
        """:meth:`encode`, emptying this model on the way: it must not be used afterwards.

        Encoding a large file whole holds its lines, its joined text and its bytes at
        once. Piece by piece from the end, each piece's lines are released once encoded,
        so the peak stays near the size of the lines alone (what a big patch needs).
        """
        lines, endings = self.lines, self.endings
        if len(lines) <= _PIECE:
            return self.encode()
        pieces: list[bytes] = []
        # every line ends in LF (the usual case): each piece is one join, no ending looked at
        all_lf = endings.count(LF) == len(endings)
        while lines:
            start = max(0, len(lines) - _PIECE)
            if all_lf:
                piece = LF.join(lines[start:]) + LF
            else:
                piece = TextFile(lines[start:], endings[start:]).text
            pieces.append(encode_text(piece, self.encoding))
            del lines[start:], endings[start:], piece
        pieces.append(self.bom)
        pieces.reverse()
        return b"".join(pieces)

    @property
    def ends_with_newline(self) -> bool:
        """Whether the last line carries an ending (an empty file counts as not)."""
        return bool(self.endings) and self.endings[-1] != ""

    @property
    def newline(self) -> str:
        """The dominant newline style (LF when the file has none)."""
        if self._newline is None:
            self._newline = dominant_newline(self.endings)
        return self._newline

    @property
    def has_cr(self) -> bool:
        """Whether any line ends in CR or CRLF (else every ending is LF or absent)."""
        return self.endings.count(LF) + (1 if self.endings and not self.endings[-1] else 0) != len(
            self.endings
        )

    def lf_pieces(self) -> list[str] | None:
        """``self.text.split("\\n")`` read off the lines (no join, no split) when no line
        ends in CR or CRLF; ``None`` otherwise."""
        if self.has_cr:
            return None
        return [*self.lines, ""] if self.ends_with_newline or not self.lines else list(self.lines)

    def mark_spliced(self, source: TextFile, blocks: list[tuple[int, int, int, int]]) -> None:
        """Record that this text is ``source`` with only ``blocks`` replaced (0-based
        ``old_start, old_end, new_start, new_end``): every line between them is the same
        object as the source's, with the same ending. The caller vouches for it."""
        self._spliced = (ref(source), blocks)

    def spliced_from(self, source: TextFile, blocks: Sequence[tuple[int, int, int, int]]) -> bool:
        """Whether this text is known to be ``source`` with only ``blocks`` replaced
        (see :meth:`mark_spliced`): its lines between them need no comparing."""
        known = self._spliced
        return known is not None and known[0]() is source and known[1] == blocks

    def __getstate__(self) -> dict[str, object]:
        """Pickled and copied without the splice mark (a weak reference pickles not)."""
        state = dict(self.__dict__)
        state["_spliced"] = None
        return state

    def __len__(self) -> int:
        return len(self.lines)

    def copy(self) -> TextFile:
        """A shallow copy with its own line lists."""
        return TextFile(list(self.lines), list(self.endings), self.encoding, self.bom)

    def with_lines(self, lines: list[str], endings: list[str]) -> TextFile:
        """A new model with the same encoding and BOM."""
        return TextFile(lines, endings, self.encoding, self.bom)


def dominant_newline(endings: Iterable[str]) -> str:
    """The most common ending among ``endings`` (LF on ties and when there is none)."""
    seq = endings if isinstance(endings, list) else list(endings)
    lf = seq.count(LF)  # fast: the LF endings of a split are one object
    if 2 * lf > len(seq):
        return LF  # a majority: no need to count the others (slow unequal compares)
    counts = {LF: lf, CRLF: seq.count(CRLF), CR: seq.count(CR)}
    best = max(counts.values())
    if best == 0 or counts[LF] == best:
        return LF
    return CRLF if counts[CRLF] == best else CR


def join_lines(lines: Sequence[str], endings: Sequence[str]) -> str:
    """Join line contents with their endings."""
    return "".join([line + end for line, end in zip(lines, endings)])


def _unsupported_encoding(path: str | None, name: str) -> PatchwrightError:
    where = f"{path} " if path else "The file "
    return PatchwrightError(
        ErrorCode.ENCODING,
        f"{where}is encoded as {name} (it starts with a {name} BOM), which patchwright "
        "does not edit.",
        "Convert the file to UTF-8 (for example: iconv -f UTF-32 -t UTF-8) before "
        "editing it, or leave it alone.",
        path=path,
    )
