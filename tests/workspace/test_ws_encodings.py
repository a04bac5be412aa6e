"""Decoding files that are not UTF-8: detection, a named encoding, refusals.

The realistic source file of every encoding is edited through every tool in
tests/tools/test_tools_encodings.py; here are the hard cases of detection (short
files), what happens when it is unsure, and the refusals of a named encoding.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from patchwright.model import ErrorCode, PatchwrightError, TextFile
from patchwright.workspace import Workspace
from patchwright.workspace.encoding import decode_file

# short files: too little text for statistics, decided by the byte pattern
SHORT = [
    ("café = 1\n", "latin-1", "iso8859-1"),
    ('x = "über"\n', "latin-1", "iso8859-1"),
    ("total = 5  # €\n", "cp1252", "cp1252"),
    ('s = "l’été"\r\n', "cp1252", "cp1252"),
    ("x = 1\n", "utf-16-le", "utf-16-le"),
    ('print("olá")\n', "utf-16-be", "utf-16-be"),
    ('msg = "おはよう、こんにちは、こんばんは"\n', "shift_jis", "shift_jis"),
]


@pytest.mark.parametrize(
    ("text", "codec", "detected"), SHORT, ids=[s[1] + ":" + s[0][:8] for s in SHORT]
)
def test_short_files_are_detected_and_round_trip(text: str, codec: str, detected: str) -> None:
    data = text.encode(codec)
    model = decode_file(data, "short.py")
    assert (model.text, model.encoding, model.bom) == (text, detected, b"")
    assert model.encode() == data


# realistic lines whose likeliest reading by charset-normalizer's chaos alone is wrong:
# Japanese that reads as rare Hangul of cp949's extension, and French that reads as
# mac_latin2 (with a language recognised), each once read in that encoding, garbled;
# and text two encodings read alike, named as the one it is most likely in
MISREAD = [
    ("# 売上の集計：合計を返します。ご確認ください (1)\n" * 3, "shift_jis", "shift_jis"),
    ('# 消費税を計算する\nTAX = 0.1  # 税率\ndef with_tax(price):\n    """税込み価格を返す。"""\n'
     "    return int(price * (1 + TAX))\n" * 3, "shift_jis", "shift_jis"),
    ("# Données de l’utilisateur – « nom » et « prénom »\nNOM = 'Élodie'\n", "cp1252",
     "cp1252"),
    # read alike in cp1250, which could not hold an edit's "È" or "œ": named cp1252
    ("# Récapitulatif des ventes – « total » en €\ndef total(rows):\n    return sum(rows)\n"
     * 3, "cp1252", "cp1252"),
    ("# 사용자 정보를 불러옵니다 (똠방각하)\ndef load_user(uid):\n    return db.get(uid)\n" * 3,
     "cp949", "cp949"),  # a syllable of the extension: Korean keeps cp949
]  # fmt: skip


@pytest.mark.parametrize(("text", "codec", "detected"), MISREAD, ids=[m[1] for m in MISREAD])
def test_realistic_text_is_not_read_in_an_encoding_that_garbles_it(
    text: str, codec: str, detected: str
) -> None:
    data = text.encode(codec)
    model = decode_file(data, "f.py")
    assert (model.text, model.encoding) == (text, detected)
    assert model.encode() == data


def _unsure() -> PatchwrightError:
    with pytest.raises(PatchwrightError) as info:
        decode_file("# 中文\nx = 1\n".encode("gbk"), "zh.py")
    return info.value


def test_an_unsure_detection_shows_each_reading_and_asks_for_the_encoding() -> None:
    err = _unsure()
    assert err.code is ErrorCode.ENCODING and err.path == "zh.py"
    assert "binary" not in err.message
    assert err.message.startswith("zh.py is not UTF-8, and its encoding cannot be told for sure.")
    assert "gbk: '# 中文'" in err.message and "gbk" in err.details["candidates"]
    assert "name the file's encoding" in err.hint


def test_a_named_encoding_decides_where_detection_cannot(tmp_path: Path) -> None:
    data = "# 中文\nx = 1\n".encode("gbk")
    assert decode_file(data, encoding="GBK").encoding == "gbk"
    ws = Workspace(tmp_path, state_dir=tmp_path / ".state", encoding="gbk")
    assert ws.encoding == "gbk" and ws.decode(data).text == "# 中文\nx = 1\n"
    # the call's encoding wins over the workspace's
    assert ws.decode("café\n".encode("cp1252"), encoding="cp1252").encoding == "cp1252"


def test_valid_utf8_and_a_bom_win_over_a_named_encoding() -> None:
    assert decode_file("café\n".encode(), encoding="cp1252").encoding == "utf-8"
    bom = b"\xff\xfe" + "x\n".encode("utf-16-le")
    assert decode_file(bom, encoding="cp1252").encoding == "utf-16-le"


@pytest.mark.parametrize("start", ["ÿþ", "þÿ"])
def test_text_that_only_starts_like_a_utf16_bom_is_read_with_its_named_encoding(
    start: str,
) -> None:
    data = f"{start}0000\n".encode("latin-1")  # five bytes after it: no UTF-16 text
    with pytest.raises(PatchwrightError) as info:
        decode_file(data, "f.txt")
    assert info.value.code is ErrorCode.BINARY_FILE and "BOM but is not valid" in info.value.message
    assert "If it is text in an encoding without a BOM, name the file's encoding" in (
        info.value.hint
    )
    model = decode_file(data, "f.txt", encoding="latin-1")
    assert model.text == f"{start}0000\n" and model.encode() == data


@pytest.mark.parametrize(
    ("data", "encoding", "words"),
    [
        (b"x = '\x87\x90'\n", "cp932", "does not give back the same bytes (they differ at byte 5)"),
        (b"\x81\xff\n", "shift_jis", "does not decode as shift_jis, the named encoding (byte 0)"),
    ],
)
def test_a_named_encoding_that_does_not_round_trip_is_refused(
    data: bytes, encoding: str, words: str
) -> None:
    with pytest.raises(PatchwrightError) as info:
        decode_file(data, "f.txt", encoding=encoding)
    assert info.value.code is ErrorCode.ENCODING and words in info.value.message


@pytest.mark.parametrize("name", ["klingon", "base64", "rot13", "", "utf-7", "iso-2022-jp", "hz"])
def test_an_unknown_encoding_name_is_refused_naming_the_field(name: str, tmp_path: Path) -> None:
    with pytest.raises(PatchwrightError) as info:
        decode_file(b"\xe9\n", encoding=name)
    assert info.value.code is ErrorCode.INVALID_REQUEST and info.value.field == "encoding"
    with pytest.raises(PatchwrightError):
        Workspace(tmp_path, state_dir=tmp_path / ".state", encoding=name)


@pytest.mark.parametrize(
    ("data", "why"),
    [
        (b"\x00\x01\x02\x03binary", "NUL bytes"),
        (b"\x7fELF\x02\x01\x01\x03\x04\x05\x06\x07\xe9\xff", "control bytes"),
        ("x\n".encode("utf-16-le") + b"\x00\x00", "NUL"),
    ],
)
def test_binary_is_said_only_of_binary_data(data: bytes, why: str) -> None:
    with pytest.raises(PatchwrightError) as info:
        decode_file(data, "blob")
    assert info.value.code is ErrorCode.BINARY_FILE and why in info.value.message


def test_utf16_without_bom_needs_its_nul_pattern() -> None:
    # an odd length, or NULs on both sides, is no UTF-16 text
    for data in (b"a\x00b\x00c", b"a\x00\x00b"):
        with pytest.raises(PatchwrightError) as info:
            decode_file(data)
        assert info.value.code is ErrorCode.BINARY_FILE


_TEXT = st.text(
    alphabet=st.characters(codec="latin-1", blacklist_categories=("Cc",))
    | st.sampled_from("\n\r\t"),
    min_size=1,
)


@given(_TEXT)
def test_property_any_latin1_text_round_trips_with_its_named_encoding(text: str) -> None:
    data = text.encode("latin-1")
    model = TextFile.decode(data, encoding="latin-1")
    assert model.encode() == data


@given(_TEXT)
def test_property_detection_never_changes_a_byte(text: str) -> None:
    data = text.encode("latin-1")
    try:
        model = decode_file(data)
    except PatchwrightError as err:  # unsure: refused, never guessed wrong silently
        assert err.code is ErrorCode.ENCODING
        return
    assert model.encode() == data


def test_a_large_file_is_detected_from_its_lines_with_high_bytes() -> None:
    head = "".join(f"value_{i} = {i}\n" for i in range(20_000))  # ASCII, past the sample size
    tail = "# 日本語のコメントです。挨拶を返します。\nmsg = 'おはようございます、こんにちは'\n"
    data = (head + tail + head).encode("shift_jis")
    model = decode_file(data, "big.py")
    assert model.encoding == "shift_jis" and model.encode() == data
    unsure = (head + "# 中文\n" + head).encode("gbk")
    with pytest.raises(PatchwrightError) as info:
        decode_file(unsure, "big.py")
    assert "Line 20001 reads as" in info.value.message and "gbk: '# 中文'" in info.value.message


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_without_bom_of_cjk_source_is_detected(codec: str) -> None:
    sources = Path(__file__).resolve().parents[1] / "fixtures" / "encodings" / "sources"
    text = (sources / "report.py").read_text("utf-8") + (sources / "ledger.py").read_text("utf-8")
    data = text.replace("\n", "\r\n").encode(codec)
    model = decode_file(data, "report.py")
    assert (model.encoding, model.bom) == (codec, b"") and model.encode() == data


def test_utf16_prose_too_dense_to_tell_is_read_with_its_named_encoding() -> None:
    # two U+4E00 per line put as many NULs on the low side as line breaks on the high
    text = "中文文本的一行，这是一个很长的句子。\r\n" * 5
    data = text.encode("utf-16-le")
    with pytest.raises(PatchwrightError) as info:
        decode_file(data, "prose.txt")
    assert info.value.code is ErrorCode.BINARY_FILE
    assert "If it is UTF-16 text without a BOM, name the file's encoding" in info.value.hint
    model = decode_file(data, "prose.txt", encoding="utf-16-le")
    assert model.text == text and model.encode() == data


_REPERTOIRE = {
    "cp1252": "abc é€“”–\t",
    "iso8859-1": "abc éüß\t",
    "shift_jis": "abc 日本語カナ、",
    "gbk": "abc 中文报表，",
    "euc_kr": "abc 한국어 합계,",
    "utf-16-le": "abc é中한😀",
    "utf-16-be": "abc é中한😀",
}


@pytest.mark.parametrize("codec", list(_REPERTOIRE))
@given(data=st.data())
def test_property_an_edit_changes_only_the_bytes_of_its_lines(
    codec: str, data: st.DataObject
) -> None:
    line = st.text(alphabet=_REPERTOIRE[codec], max_size=12)
    lines = data.draw(st.lists(line, min_size=2, max_size=8))
    endings = data.draw(st.lists(st.sampled_from(["\n", "\r\n"]), min_size=len(lines),
                                 max_size=len(lines)))  # fmt: skip
    model = TextFile(lines, endings, codec)
    at = data.draw(st.integers(0, len(lines) - 1))
    new_line = data.draw(line)
    edited = model.with_lines([*lines[:at], new_line, *lines[at + 1 :]], endings)
    before, after = model.encode(), edited.encode()
    head = TextFile(lines[:at], endings[:at], codec).encode()
    tail = TextFile(lines[at + 1 :], endings[at + 1 :], codec).encode()
    assert before.startswith(head) and after.startswith(head)
    assert before.endswith(tail) and after.endswith(tail)
    assert TextFile.decode(before, encoding=codec).encode() == before


def test_a_utf8_file_with_a_stray_legacy_byte_is_refused_as_mixed() -> None:
    data = ("# café crème — «déjà vu» naïve\n" * 3 + 'x = "caf').encode() + b'\xe9"\n'
    with pytest.raises(PatchwrightError) as info:
        decode_file(data, "m.py")
    err = info.value
    assert err.code is ErrorCode.ENCODING and err.details["reason"] == "mixed"
    assert "m.py is UTF-8 (24 characters beyond ASCII) except for 1 byte sequence(s)" in err.message
    assert f"the first at byte {len(data) - 3}" in err.message
    # naming the encoding of the whole file still reads it
    assert decode_file(data, encoding="cp1252").encode() == data
