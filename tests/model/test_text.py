"""Byte fidelity of the text model."""

from __future__ import annotations

import codecs

import pytest
from hypothesis import given
from hypothesis import strategies as st

from patchwright.model import ErrorCode, PatchwrightError, TextFile, split_lines


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"a",
        b"a\n",
        b"a\r\nb\r\n",
        b"a\rb\r",
        b"a\nb\r\nc\rd",
        b"\n\n\n",
        b"no final newline",
        codecs.BOM_UTF8 + b"bom\r\n",
        codecs.BOM_UTF16_LE + "utf16\r\nle".encode("utf-16-le"),
        codecs.BOM_UTF16_BE + "utf16\nbe\n".encode("utf-16-be"),
        "caf\u00e9 \u201cquoted\u201d\n".encode(),
    ],
)
def test_round_trip_is_byte_identical(data: bytes) -> None:
    assert TextFile.decode(data).encode() == data


def test_endings_are_remembered_per_line() -> None:
    f = TextFile.decode(b"a\nb\r\nc\rd")
    assert f.lines == ["a", "b", "c", "d"]
    assert f.endings == ["\n", "\r\n", "\r", ""]
    assert not f.ends_with_newline


def test_dominant_newline() -> None:
    assert TextFile.decode(b"a\r\nb\r\nc\n").newline == "\r\n"
    assert TextFile.decode(b"a\nb\r\n").newline == "\n"  # ties go to LF
    assert TextFile.decode(b"single line").newline == "\n"


def test_bom_is_kept() -> None:
    f = TextFile.decode(codecs.BOM_UTF8 + b"x\n")
    assert f.bom == codecs.BOM_UTF8
    assert f.lines == ["x"]


@pytest.mark.parametrize(
    ("data", "why"),
    [
        (b"abc\x00def", "NUL"),
        (b"\xff\xfe\x41", "utf-16-le BOM"),
        (b"\x89PNG\r\n\x1a\n\x02\x03\x04\x05\xff", "control bytes"),
    ],
)
def test_binary_is_refused(data: bytes, why: str) -> None:
    with pytest.raises(PatchwrightError) as info:
        TextFile.decode(data, path="x.bin")
    assert info.value.code == ErrorCode.BINARY_FILE
    assert why in info.value.message
    assert "x.bin" in info.value.message


@pytest.mark.parametrize(("data", "byte"), [(b"\xc3\x28\xa0", 0), (b"ok\n\xc3(", 3)])
def test_text_not_utf8_without_a_named_encoding_is_not_called_binary(
    data: bytes, byte: int
) -> None:
    with pytest.raises(PatchwrightError) as info:
        TextFile.decode(data, path="x.txt")
    err = info.value
    assert err.code == ErrorCode.ENCODING and "binary" not in err.message
    assert f"x.txt is not UTF-8 (byte {byte})" in err.message
    assert "name the file's encoding" in err.hint


def test_split_lines_empty() -> None:
    assert split_lines("") == ([], [])


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00")))
def test_property_round_trip_utf8(text: str) -> None:
    data = text.encode("utf-8")
    assert TextFile.decode(data).encode() == data


@given(st.lists(st.sampled_from(["a", "b", " ", "\t", "\n", "\r", "\r\n", "é"])).map("".join))
def test_property_round_trip_with_bom(text: str) -> None:
    data = codecs.BOM_UTF8 + text.encode("utf-8")
    assert TextFile.decode(data).encode() == data


@pytest.mark.parametrize(
    ("bom", "name"),
    [(codecs.BOM_UTF32_LE, "UTF-32-LE"), (codecs.BOM_UTF32_BE, "UTF-32-BE")],
)
def test_utf32_is_refused_as_unsupported_encoding(bom: bytes, name: str) -> None:
    # FF FE 00 00 starts with the UTF-16-LE BOM: without a check of its own the file
    # decoded as UTF-16 full of NULs.
    codec = "utf-32-le" if name.endswith("LE") else "utf-32-be"
    with pytest.raises(PatchwrightError) as info:
        TextFile.decode(bom + "text\n".encode(codec), path="u32.txt")
    err = info.value
    assert err.code == ErrorCode.ENCODING
    assert name in err.message and "u32.txt" in err.message
    assert "UTF-8" in err.hint


@pytest.mark.parametrize(
    "data",
    [
        codecs.BOM_UTF8 + b"a\x00b\n",
        codecs.BOM_UTF16_LE + "a\x00b\n".encode("utf-16-le"),
        codecs.BOM_UTF16_BE + "a\x00b\n".encode("utf-16-be"),
    ],
)
def test_nul_is_refused_with_a_bom_too(data: bytes) -> None:
    with pytest.raises(PatchwrightError) as info:
        TextFile.decode(data)
    assert info.value.code == ErrorCode.BINARY_FILE
    assert "NUL" in info.value.message


@pytest.mark.parametrize(
    "data",
    [
        "".join(f"line {i}\n" for i in range(40_000)).encode(),
        codecs.BOM_UTF16_LE
        + "".join(f"ligne é {i}\r\n" if i % 3 else f"x {i}\n" for i in range(40_000))
        .removesuffix("\n")
        .encode("utf-16-le"),
        b"short\r\nfile",
    ],
    ids=["utf8-large", "utf16-bom-mixed-no-final-newline", "small"],
)
def test_encode_releasing_gives_the_bytes_of_encode(data: bytes) -> None:
    model = TextFile.decode(data)
    assert model.encode() == data
    assert model.encode_releasing() == data
    assert model.lines == [] or len(data) < 100  # large models are emptied on the way


@given(
    st.lists(st.sampled_from(["a", "é", "\r", "\n", "\r\n", "xyz", "€", "\U0001f600"]), max_size=80)
)
def test_large_utf8_files_decode_piece_by_piece_to_the_same_lines(parts: list[str]) -> None:
    import patchwright.model.text as text_module

    data = "".join(parts).encode("utf-8")
    whole = TextFile.decode(data)
    saved = text_module._DECODE_PIECE
    text_module._DECODE_PIECE = 7  # pieces cut inside characters and CRLF pairs if wrong
    try:
        pieces = TextFile.decode(data)
    finally:
        text_module._DECODE_PIECE = saved
    assert (pieces.lines, pieces.endings) == (whole.lines, whole.endings)
    assert pieces.encode() == data


def test_invalid_utf8_in_a_later_piece_names_its_byte_in_the_file() -> None:
    data = b"line\n" * 400_000 + b"\xff\n"
    with pytest.raises(PatchwrightError) as caught:
        TextFile.decode(data)
    assert caught.value.code == ErrorCode.ENCODING
    assert f"byte {len(data) - 2}" in caught.value.message


@given(st.lists(st.sampled_from(["a", " ", "\x0c", "\n", "\r", "\r\n", "é"])).map("".join))
def test_lf_pieces_are_the_text_split_at_line_feeds(text: str) -> None:
    model = TextFile.from_text(text)
    pieces = model.lf_pieces()
    if "\r" in text:
        assert pieces is None
    else:
        assert pieces == text.split("\n")
