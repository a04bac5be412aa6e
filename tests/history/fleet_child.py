"""Test-only helper run as a subprocess: one agent of a fleet sharing a PostgreSQL history.

    fleet_child.py ROOT NAME COUNT

Commits COUNT versions of the file NAME in the workspace ROOT (the state folder and the
history URL come from the environment), each guarded by the previous version's SHA256,
labelled ``NAME i``, and prints the batch IDs as a JSON list.
"""

from __future__ import annotations

import json
import sys

from patchwright.workspace import FileChange, Workspace, sha256_hex


def main(root: str, name: str, count: int) -> None:
    ws = Workspace(root)
    ids = []
    previous = None
    for i in range(count):
        data = f"{name} {i}\n".encode()
        expected = sha256_hex(previous) if previous is not None else None
        change = FileChange(name, data, expected_sha256=expected, must_not_exist=previous is None)
        ids.append(ws.commit([change], tool="fleet", label=f"{name} {i}").batch_id)
        previous = data
    print(json.dumps(ids))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
