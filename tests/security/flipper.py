"""A hostile local process: flips a folder inside the root to a symlink, in a loop.

    python flipper.py ROOT FOLDER OUTSIDE STOP_FILE

``ROOT/FOLDER`` and a symlink to ``OUTSIDE`` (made here, next to it) trade places
atomically (``renameat2(RENAME_EXCHANGE)``), and back, round after round: at every
instant the name is either the real folder or the symlink, never missing. After each
round it prints one line. It stops once ``STOP_FILE`` exists, leaving the real folder in
place and removing its symlink.
"""

from __future__ import annotations

import ctypes
import os
import sys
import time

# how long each state lasts: the adversary's pace, not something a test waits for
_HOLD_LINK = 0.001
_HOLD_FOLDER = 0.004
_AT_FDCWD = -100
_RENAME_EXCHANGE = 2

_libc = ctypes.CDLL(None, use_errno=True)
_renameat2 = _libc.renameat2
_renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]


def exchange(a: str, b: str) -> None:
    """Swap the names ``a`` and ``b`` in one step."""
    if _renameat2(_AT_FDCWD, a.encode(), _AT_FDCWD, b.encode(), _RENAME_EXCHANGE) != 0:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err), a)


def main(root: str, name: str, outside: str, stop: str) -> int:
    folder = os.path.join(root, name)
    link = os.path.join(root, f"{name}.link")
    os.symlink(outside, link)
    rounds = 0
    while not os.path.exists(stop):
        exchange(folder, link)  # the folder's name is a symlink now
        time.sleep(_HOLD_LINK)
        exchange(folder, link)  # and the real folder again
        rounds += 1
        print(rounds, flush=True)
        time.sleep(_HOLD_FOLDER)
    os.unlink(link)
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:5]))
