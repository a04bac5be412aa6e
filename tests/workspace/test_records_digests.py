"""SHA256 digests kept with their bytes are only ever returned for those very bytes."""

from __future__ import annotations

import hashlib
import random

import pytest

from patchwright.workspace import records
from patchwright.workspace.records import digests_kept, sha256_hex


def test_kept_digests_equal_fresh_ones_for_equal_and_different_bytes() -> None:
    rng = random.Random(3)
    base = bytes(rng.randrange(256) for _ in range(5000))
    seen: list[bytes] = []
    for _ in range(200):
        # equal lengths differing in one byte, copies of earlier contents, new contents
        choice = rng.randrange(3)
        if choice == 0 or not seen:
            at = rng.randrange(len(base))
            data = base[:at] + bytes([rng.randrange(256)]) + base[at + 1 :]
        elif choice == 1:
            data = bytes(bytearray(rng.choice(seen)))  # equal, another object
        else:
            data = base + bytes(rng.randrange(256) for _ in range(rng.randrange(3)))
        assert sha256_hex(data) == hashlib.sha256(data).hexdigest()
        seen.append(data)


def test_a_mutable_buffer_is_hashed_each_time() -> None:
    buffer = bytearray(b"first content")
    assert sha256_hex(buffer) == hashlib.sha256(b"first content").hexdigest()
    buffer[:5] = b"other"
    assert sha256_hex(buffer) == hashlib.sha256(b"other content").hexdigest()


def test_a_block_keeps_every_digest_until_it_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    computed: list[int] = []

    def counting(data: bytes) -> str:
        computed.append(len(data))
        return hashlib.sha256(data).hexdigest()

    monkeypatch.setattr(records, "_digest", counting)
    # more contents than the few kept outside a block, each read twice as a fresh object
    contents = [b"content %04d\n" % i * 100 for i in range(40)]
    with digests_kept(budget=30 * len(contents[0])):
        for data in contents:
            assert sha256_hex(data) == hashlib.sha256(data).hexdigest()
        for data in contents:
            assert sha256_hex(bytes(bytearray(data))) == hashlib.sha256(data).hexdigest()
    # the first 30 fit the budget: hashed once; the other 10 twice
    assert len(computed) == 40 + 10
    computed.clear()
    for data in contents:
        sha256_hex(bytes(bytearray(data)))
    assert len(computed) == 40  # let go at the block's end
