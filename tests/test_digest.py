"""SHA-256 digests are the same whichever implementation computes them."""

from __future__ import annotations

import hashlib
import subprocess
import sys

import pytest

from patchwright._digest import sha256_hex

# A fresh interpreter: small inputs must not load OpenSSL, a large one must.
_CHILD = """
import sys
from patchwright._digest import sha256_hex
small = sha256_hex(b"abc")
assert "hashlib" not in sys.modules, "a small input loaded hashlib"
large = sha256_hex(bytes(range(256)) * 1024)
assert "hashlib" in sys.modules, "a large input did not use hashlib"
print(small, large)
"""


@pytest.mark.parametrize("size", [0, 1, 63, 64 * 1024, 64 * 1024 + 1, 300_000])
def test_digest_equals_hashlib(size: int) -> None:
    data = bytes((i * 7) % 256 for i in range(size))
    assert sha256_hex(data) == hashlib.sha256(data).hexdigest()
    assert sha256_hex(bytearray(data)) == hashlib.sha256(data).hexdigest()


# Many small inputs: OpenSSL once their running total passes what loading it costs.
_MANY = """
import sys
from patchwright._digest import _SMALL_BUDGET, sha256_hex
piece = bytes(range(256)) * 128  # 32 KiB
count = 0
while "hashlib" not in sys.modules:
    sha256_hex(piece)
    count += 1
print(count, _SMALL_BUDGET // len(piece))
"""


def test_small_inputs_leave_openssl_unloaded_in_a_fresh_process() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _CHILD], capture_output=True, text=True, check=True, timeout=60
    )
    small, large = done.stdout.split()
    assert small == hashlib.sha256(b"abc").hexdigest()
    assert large == hashlib.sha256(bytes(range(256)) * 1024).hexdigest()


def test_many_small_inputs_load_openssl_once_past_the_budget() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _MANY], capture_output=True, text=True, check=True, timeout=60
    )
    count, within = map(int, done.stdout.split())
    # every piece that fits the budget is hashed without OpenSSL, the next one loads it
    assert count == within + 1
