"""Text encodings other than UTF-8: naming, decoding that must round-trip, refusals.

A file that is not UTF-8 is edited only when its bytes decode with a named (or
detected) codec and encoding that text again gives back the very same bytes: then an
edit changes only the bytes of the lines it replaces. This module is pure (no
detection library): the workspace detects an encoding and passes its name down.

UTF-16 without a BOM is told apart from binary data here, by its NUL bytes: ASCII
characters in UTF-16 have one NUL byte each, all on the same side of the code unit.
"""

from __future__ import annotations

import codecs

from patchwright.model.errors import ErrorCode, PatchwrightError

#: How a caller names the encoding of a file, in a refusal's next step; tools and
#: adapters replace it with their own field or option (:func:`with_next_step`).
DEFAULT_NEXT_STEP = "name the file's encoding"
#: The encodings a refusal gives as examples.
EXAMPLES = "(for example cp1252, shift_jis, gbk)"
#: The next step of a command-line caller.
OPTION_NEXT_STEP = "pass --encoding NAME"

# encodings whose bytes for a character depend on the text before it (iso2022_* too)
_STATEFUL = frozenset({"utf-7", "hz"})
# ASCII control bytes a text file does not hold (tab, LF, VT, FF, CR and ESC are text).
_CONTROL = bytes(b for b in range(1, 32) if b not in (9, 10, 11, 12, 13, 27))
_CONTROL_TABLE = bytes.maketrans(b"", b"")


def codec_name(name: str, *, field: str = "encoding") -> str:
    """The canonical Python name of the text encoding ``name`` (``latin-1`` gives
    ``iso8859-1``... as :func:`codecs.lookup` names it).

    Raises:
        PatchwrightError: ``invalid_request`` naming ``field`` for an unknown name or a
            codec that is not a text encoding (``base64``, ``rot13``).
    """
    try:
        info = codecs.lookup(name.strip())
    except (LookupError, AttributeError):
        info = None
    # a bytes-to-bytes or str-to-str codec (base64, rot13) is no file encoding
    if info is None or not getattr(info, "_is_text_encoding", True):
        raise PatchwrightError(
            ErrorCode.INVALID_REQUEST,
            f"{field} {name!r} is not a text encoding Python knows.",
            "Name an encoding such as utf-8, latin-1, cp1252, shift_jis, gbk, euc_kr or utf-16-le.",
            field=field,
        )
    if info.name in _STATEFUL or info.name.startswith("iso2022"):
        raise PatchwrightError(
            ErrorCode.INVALID_REQUEST,
            f"{field} {name!r} is a stateful encoding (its escape sequences carry a state "
            "from one line to the next), so an edit could change the bytes of lines it did "
            "not touch; patchwright does not edit such files.",
            "Convert the file to UTF-8 first (for example: iconv -f ISO-2022-JP -t UTF-8), "
            "or leave it alone.",
            field=field,
        )
    return info.name


def with_next_step(err: PatchwrightError, step: str) -> PatchwrightError:
    """``err`` with its way of naming an encoding (:data:`DEFAULT_NEXT_STEP`) replaced
    by ``step``, the one the caller offers; returns ``err``."""
    if err.code in (ErrorCode.ENCODING, ErrorCode.BINARY_FILE) and DEFAULT_NEXT_STEP in err.hint:
        err.hint = err.hint.replace(DEFAULT_NEXT_STEP, step)
    return err


def decode_as(data: bytes, codec: str, path: str | None, *, named: bool = False) -> str:
    """``data`` decoded with ``codec``, checked to encode back to the same bytes.

    ``named``: the caller named the codec (else it was detected), said in refusals.

    Raises:
        PatchwrightError: ``encoding`` when the bytes do not decode or do not round-trip;
            ``binary_file`` when the text holds NUL characters.
    """
    how = "the named encoding" if named else "its detected encoding"
    where = f"{path} " if path else "The file "
    try:
        text = data.decode(codec)
    except UnicodeDecodeError as exc:
        raise PatchwrightError(
            ErrorCode.ENCODING,
            f"{where}does not decode as {codec}, {how} (byte {exc.start}).",
            f"Check the file's encoding and {DEFAULT_NEXT_STEP} {EXAMPLES}.",
            path=path,
            details={"encoding": codec},
        ) from None
    if "\x00" in text:
        raise binary(path, "it contains NUL characters")
    try:
        back = text.encode(codec)
    except UnicodeEncodeError:
        back = b""
    if back != data:
        at = next((i for i, (a, b) in enumerate(zip(back, data)) if a != b), len(back))
        raise PatchwrightError(
            ErrorCode.ENCODING,
            f"{where}decodes as {codec} ({how}), but encoding the text again does not give "
            f"back the same bytes (they differ at byte {at}), so an edit could change bytes "
            "it did not touch.",
            f"Leave the file alone, convert it to UTF-8 first, or {DEFAULT_NEXT_STEP} if "
            f"{codec} is not its encoding.",
            path=path,
            details={"encoding": codec},
        )
    return text


def utf16_without_bom(data: bytes) -> str | None:
    """``utf-16-le`` or ``utf-16-be`` when ``data`` reads as UTF-16 text without a BOM,
    else ``None``.

    Each ASCII character (line breaks, spaces, code) has a NUL high byte, so the NULs
    of such text stand on one side of the code units: at least one unit in sixteen has
    one there, and the other side holds at most half as many (a CJK character such as
    U+4E00, common in Chinese, has a NUL low byte). The text must then decode strictly
    (surrogates paired), hold no NUL character and almost no control characters.
    """
    if len(data) < 2 or len(data) % 2:
        return None
    even = data[0::2].count(0)
    odd = data[1::2].count(0)
    units = len(data) // 2
    nuls, other, codec = (odd, even, "utf-16-le") if odd >= even else (even, odd, "utf-16-be")
    if nuls * 16 < units or other * 2 > nuls:
        return None
    try:
        text = data.decode(codec)
    except UnicodeDecodeError:
        return None
    if "\x00" in text or _controls(text) * 100 > len(text):
        return None
    return codec


def _controls(text: str) -> int:
    return sum(1 for ch in text if ord(ch) < 32 and ch not in "\t\n\x0b\x0c\r\x1b")


def control_bytes(data: bytes) -> int:
    """How many ASCII control bytes of binary data (not tab, line breaks or ESC)
    ``data`` holds."""
    return len(data) - len(data.translate(_CONTROL_TABLE, _CONTROL))


def unencodable(text: str, codec: str) -> list[str]:
    """The distinct characters of ``text`` that ``codec`` cannot encode, in order."""
    try:
        text.encode(codec)
    except UnicodeEncodeError:
        pass
    else:
        return []
    seen: dict[str, None] = {}
    for ch in text:
        if ch not in seen:
            try:
                ch.encode(codec)
            except UnicodeEncodeError:
                seen[ch] = None
    return list(seen)


def describe_chars(chars: list[str], limit: int = 8) -> str:
    """``'€' (U+20AC), 'é' (U+00E9)``, the first ``limit`` of ``chars``."""
    shown = ", ".join(f"{ch!r} (U+{ord(ch):04X})" for ch in chars[:limit])
    more = len(chars) - limit
    return shown + (f" and {more} more" if more > 0 else "")


def unencodable_error(
    chars: list[str], codec: str, path: str | None, field: str | None = None
) -> PatchwrightError:
    """The refusal of new text holding ``chars``, which ``path``'s ``codec`` cannot hold."""
    where = f"{path}'s encoding" if path else "the file's encoding"
    what = f"{field} holds" if field else "The new text holds"
    return PatchwrightError(
        ErrorCode.ENCODING,
        f"{what} characters that {where}, {codec}, cannot hold: {describe_chars(chars)}. "
        "Nothing was changed.",
        "Write those characters another way the file allows (an escape such as \\u20ac "
        "inside a string literal, or plain ASCII), or leave them out.",
        path=path,
        field=field,
        details={"encoding": codec, "characters": chars},
    )


def encode_text(text: str, codec: str, path: str | None = None) -> bytes:
    """``text`` encoded with ``codec``.

    Raises:
        PatchwrightError: ``encoding`` naming the characters ``codec`` cannot hold.
    """
    try:
        return text.encode(codec)
    except UnicodeEncodeError:
        raise unencodable_error(unencodable(text, codec), codec, path) from None


def binary(path: str | None, why: str) -> PatchwrightError:
    """The refusal of a binary file (NUL bytes, control bytes)."""
    where = f"{path} " if path else "The file "
    return PatchwrightError(
        ErrorCode.BINARY_FILE,
        f"{where}looks binary: {why}. patchwright edits text files only.",
        "Leave binary files alone.",
        path=path,
    )
