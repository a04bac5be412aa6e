"""Acceptance through the real command line: a stratified sample of the corpus.

Each patch runs as ``patchwright apply PATCH --root DIR`` in a subprocess, through the
installed console script (the one next to this interpreter, as a user would run it);
exit 0 must mean the expected bytes were written, exit 1 that nothing changed and a
refusal was printed. About 170 cases (five per format and kind); two at a time, since
each is a process start more than work. (The whole corpus runs in process, under the
``corpus_full`` marker, in ``test_corpus_apply.py``.)
"""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from corpus_support import Case, available, place, stratified

pytestmark = pytest.mark.skipif(
    not available(), reason="../shared/corpus is not beside the checkout"
)

SCRIPT = Path(sys.executable).parent / ("patchwright.exe" if os.name == "nt" else "patchwright")
PER_GROUP = 5
WORKERS = 2


def _run(n: int, case: Case, tmp_path: Path, env: dict[str, str]) -> tuple[bool, str | None]:
    """Apply one case; returns (applied, what was wrong or None)."""
    root = tmp_path / f"r{n}"
    root.mkdir()
    target = place(root, case)
    patch = tmp_path / f"p{n}.patch"
    patch.write_text(case.patch, encoding="utf-8", newline="")
    proc = subprocess.run(
        [str(SCRIPT), "apply", str(patch), "--root", str(root)],
        capture_output=True,
        env=env,
        timeout=60,
        check=False,
    )
    got = target.read_bytes()
    if proc.returncode == 0 and got == case.expected:
        return True, None
    if proc.returncode == 1 and got == case.before:
        return False, None if proc.stderr else f"{case.id}: refusal without a message"
    return False, f"{case.id} (exit {proc.returncode})"


def test_stratified_sample_through_cli(tmp_path: Path) -> None:
    assert SCRIPT.is_file(), f"the console script is not installed at {SCRIPT}"
    sample = stratified(per_group=PER_GROUP)
    assert len(sample) >= 150
    env = {**os.environ, "PATCHWRIGHT_STATE_DIR": str(tmp_path / "state")}
    with ThreadPoolExecutor(WORKERS) as pool:
        results = list(
            pool.map(lambda item: _run(item[0], item[1], tmp_path, env), enumerate(sample))
        )
    bad = [wrong for _, wrong in results if wrong is not None]
    assert bad == []
    assert sum(applied for applied, _ in results) >= len(sample) // 2
