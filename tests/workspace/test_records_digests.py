"""SHA256 digests kept with their bytes are only ever returned for those very bytes."""

from __future__ import annotations

import hashlib
import random

from patchwright.workspace.records import sha256_hex


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
