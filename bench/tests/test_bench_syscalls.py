"""The system-call counts of the many-file benchmark: strace's table read back, and one
real count of a command whose calls are known."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from _syscalls import count_calls, env_for, parse_counts, table_rows

TABLE = """\
% time     seconds  usecs/call     calls    errors syscall
------ ----------- ----------- --------- --------- ----------------
 52.21    0.739038         154      4776       791 futex
 20.47    0.289761         469       617           fsync
 13.54    0.191604          60      3192        93 openat
------ ----------- ----------- --------- --------- ----------------
100.00    1.181713          26      8585       884 total
"""


def test_the_calls_column_is_read_with_and_without_errors() -> None:
    assert parse_counts(TABLE) == {"futex": 4776, "fsync": 617, "openat": 3192, "total": 8585}


def test_rows_compare_before_and_after() -> None:
    rows = table_rows({"openat": 200, "total": 400}, {"openat": 50, "fsync": 3, "total": 300})
    assert rows == [
        ("openat", "200", "50", "0.25x"),
        ("fsync", "0", "3", "-"),
        ("total", "400", "300", "0.75x"),
    ]


@pytest.mark.skipif(shutil.which("strace") is None, reason="strace is not installed")
def test_a_real_count(tmp_path: Path) -> None:
    script = "import os\nfor _ in range(7):\n    os.close(os.open('.', os.O_RDONLY))\n"
    base = count_calls([sys.executable, "-c", "pass"], tmp_path, env_for(None, str(tmp_path)))
    more = count_calls([sys.executable, "-c", script], tmp_path, env_for(None, str(tmp_path)))
    assert base is not None and more is not None
    assert more["openat"] - base["openat"] == 7
