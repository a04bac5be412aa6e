"""bench/text_encodings.py on sizes small enough for a test run: every row measured,
and each result checked inside the script (a wrong decoding or edit stops it)."""

from __future__ import annotations

import text_encodings


def test_every_encoding_is_decoded_and_edited_beside_utf8() -> None:
    decoded = text_encodings.decoding(400, 1)
    assert [row[0] for row in decoded] == list(text_encodings._SCRIPTS)
    assert all(row[-1].endswith("x") for row in decoded)  # both sides measured
    edited = text_encodings.edits(2)
    assert [row[0] for row in edited] == list(text_encodings._SCRIPTS)
    assert all(row[-1].endswith("x") for row in edited)


def test_a_notebook_cell_is_edited_beside_the_same_bytes_as_text() -> None:
    (row,) = text_encodings.notebook_edits(20, 2)
    assert row[0].startswith("20 cells, ") and row[-1].endswith("x")
