"""A hostile local process: swaps a folder inside the root for a symlink, in a loop.

    python flipper.py ROOT FOLDER OUTSIDE STOP_FILE

Each round renames ``ROOT/FOLDER`` aside, puts a symlink to ``OUTSIDE`` in its place,
removes the symlink and renames the folder back, then prints one line (the rounds so
far). When patchwright created a new ``FOLDER`` in the gap, that one is moved aside
inside the root (``FOLDER.intruder-N``) so the real one can come back. It stops once
``STOP_FILE`` exists, leaving the real folder in place.
"""

from __future__ import annotations

import os
import sys
import time

# how long each state lasts: the adversary's pace, not something a test waits for
_HOLD_LINK = 0.001
_HOLD_FOLDER = 0.004


def main(root: str, name: str, outside: str, stop: str) -> int:
    folder = os.path.join(root, name)
    parked = os.path.join(root, f"{name}.parked")
    rounds = intruders = 0
    while not os.path.exists(stop):
        os.rename(folder, parked)
        os.symlink(outside, folder)
        time.sleep(_HOLD_LINK)
        os.unlink(folder)
        while True:
            try:
                os.rename(parked, folder)
                break
            except OSError:
                # patchwright created the folder again while it was away: keep that one
                # inside the root under another name
                intruders += 1
                os.rename(folder, os.path.join(root, f"{name}.intruder-{intruders}"))
        rounds += 1
        print(rounds, flush=True)
        time.sleep(_HOLD_FOLDER)
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:5]))
