"""SHA-256 hex digests: content identities, lock names, state-folder names.

``hashlib`` loads OpenSSL's binding when it is imported, which is about as costly as the
rest of a one-line ``patchwright apply``'s hashing many times over (about 3 ms of
start-up, docs/benchmarks.md). CPython also ships its own SHA-256 as a small extension
module, whose digests are the same bytes by definition but which is about six times
slower per byte (5.5 ms per MB against 0.8 ms here). So small inputs use it only as long
as nothing in the process has imported ``hashlib`` and the process has not hashed much:
the first large input, or the first input past a running total of small ones (a patch
of hundreds of files hashes every one of them twice), imports ``hashlib``, and from then
on (as in a long-running server, which imports it anyway) OpenSSL hashes everything.
Where the interpreter has no such module (another implementation), ``hashlib`` serves
all.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["sha256_hex"]

# Up to this size CPython's module takes at most about 0.35 ms (OpenSSL 0.05 ms), well
# below what loading OpenSSL costs; and up to this many bytes in all, about 3 ms, as much
# as loading it: past that, OpenSSL pays for its loading.
_SMALL_MAX = 64 * 1024
_SMALL_BUDGET = 512 * 1024


def _builtin_sha256() -> Callable[[bytes], Any] | None:
    for name in ("_sha2", "_sha256"):  # CPython 3.12+, then 3.10-3.11
        try:
            module = __import__(name)
        except ImportError:
            continue
        found: Callable[[bytes], Any] = module.sha256
        return found
    return None


_SMALL = _builtin_sha256()
# bytes the small module may still hash in this process (threads may race on it: a few
# bytes more or less only move the switch to OpenSSL a little)
_left = [_SMALL_BUDGET]


def sha256_hex(data: bytes | bytearray) -> str:
    """The SHA-256 digest of ``data`` as 64 lowercase hex digits."""
    size = len(data)
    if (
        _SMALL is not None
        and size <= _SMALL_MAX
        and size <= _left[0]
        and "hashlib" not in sys.modules
    ):
        _left[0] -= size
        return str(_SMALL(bytes(data)).hexdigest())
    import hashlib

    return hashlib.sha256(data).hexdigest()
