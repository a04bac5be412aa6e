"""``read_limited``: every byte of an input within its limit, a refusal past it, and
buffers the size of the input rather than of the limit."""

from __future__ import annotations

import io
import os
import threading
import tracemalloc
from pathlib import Path

import pytest

from patchwright.adapters.limits import read_limited
from patchwright.model.errors import ErrorCode, PatchwrightError

MIB = 2**20


def _read(stream: io.BufferedIOBase, limit: int) -> bytes:
    return read_limited(stream, limit, "the patch", "--max-patch-mb")  # type: ignore[arg-type]


def test_a_small_file_under_a_large_limit_allocates_about_its_own_size(tmp_path: Path) -> None:
    path = tmp_path / "small.diff"
    path.write_bytes(b"--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n")
    with path.open("rb") as fh:
        tracemalloc.start()
        try:
            data = _read(fh, 64 * MIB)
            _current, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    assert data == path.read_bytes()
    # a buffer of the limit's size would show 64 MiB here
    assert peak < MIB // 4, peak


@pytest.mark.parametrize("size", [0, 1, MIB - 1, MIB, MIB + 1, 3 * MIB + 17])
def test_every_byte_of_a_regular_file_is_read(tmp_path: Path, size: int) -> None:
    path = tmp_path / "p.diff"
    path.write_bytes(bytes(i % 251 for i in range(size)))
    with path.open("rb") as fh:
        assert _read(fh, 4 * MIB) == path.read_bytes()


@pytest.mark.parametrize("size", [MIB - 1, MIB + 5, 2 * MIB + 3])
def test_a_stream_without_a_size_is_read_in_chunks(size: int) -> None:
    data = os.urandom(size)
    assert _read(io.BufferedReader(io.BytesIO(data)), 4 * MIB) == data


def _pipe_with(data: bytes) -> io.BufferedReader:
    r, w = os.pipe()

    def feed() -> None:
        with os.fdopen(w, "wb") as out:
            out.write(data)

    threading.Thread(target=feed, daemon=True).start()
    return os.fdopen(r, "rb")


def test_a_pipe_is_read_to_its_end() -> None:
    data = os.urandom(2 * MIB + 9)
    with _pipe_with(data) as fh:
        assert _read(fh, 4 * MIB) == data


@pytest.mark.parametrize("over", [False, True])
def test_the_limit_itself_is_allowed_and_one_byte_more_is_refused(
    tmp_path: Path, over: bool
) -> None:
    limit = MIB + 3
    path = tmp_path / "p.diff"
    path.write_bytes(b"x" * (limit + over))
    with path.open("rb") as fh:
        if not over:
            assert len(_read(fh, limit)) == limit
            return
        with pytest.raises(PatchwrightError) as caught:
            _read(fh, limit)
    assert caught.value.code is ErrorCode.TOO_LARGE
    assert "--max-patch-mb" in str(caught.value.hint)


def test_a_pipe_past_the_limit_is_refused_having_read_one_byte_more() -> None:
    limit = MIB + 3
    with _pipe_with(b"y" * (3 * MIB)) as fh:
        with pytest.raises(PatchwrightError) as caught:
            _read(fh, limit)
        assert caught.value.code is ErrorCode.TOO_LARGE
        rest = fh.read()
    assert len(rest) == 3 * MIB - (limit + 1)


class _GrowsBeforeItsFirstRead(io.FileIO):
    """A file that another writer extends between its size being taken and its read."""

    def __init__(self, path: Path) -> None:
        super().__init__(path, "rb")
        self._path = path
        self._grown = False

    def read(self, size: int | None = -1, /) -> bytes:
        if not self._grown:
            self._grown = True
            with self._path.open("ab") as more:
                more.write(b"b" * (2 * MIB))
        return super().read(size)


def test_a_file_that_grew_after_its_size_was_taken_is_still_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "p.diff"
    path.write_bytes(b"a" * 1000)
    with _GrowsBeforeItsFirstRead(path) as fh:
        data = _read(fh, 4 * MIB)  # type: ignore[arg-type]
    assert data == b"a" * 1000 + b"b" * (2 * MIB)
