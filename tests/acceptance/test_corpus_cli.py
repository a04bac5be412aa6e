"""Acceptance through the real command line: a stratified sample of the corpus.

Each patch runs as ``patchwright apply PATCH --root DIR`` in a subprocess; exit 0 must
mean the expected bytes were written, exit 1 that nothing changed.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from corpus_support import available, place, stratified

pytestmark = pytest.mark.skipif(
    not available(), reason="../shared/corpus is not beside the checkout"
)

CLI = [sys.executable, "-m", "patchwright"]


def test_stratified_sample_through_cli(tmp_path: Path) -> None:
    sample = stratified(per_group=6)
    assert len(sample) >= 180
    env = {**os.environ, "PATCHWRIGHT_STATE_DIR": str(tmp_path / "state")}
    bad: list[str] = []
    applied = 0
    for n, case in enumerate(sample):
        root = tmp_path / f"r{n}"
        root.mkdir()
        target = place(root, case)
        patch = tmp_path / f"p{n}.patch"
        patch.write_text(case.patch, encoding="utf-8", newline="")
        proc = subprocess.run(
            [*CLI, "apply", str(patch), "--root", str(root)],
            capture_output=True,
            env=env,
            timeout=60,
            check=False,
        )
        got = target.read_bytes()
        if proc.returncode == 0 and got == case.expected:
            applied += 1
        elif proc.returncode == 1 and got == case.before:
            assert proc.stderr, f"{case.id}: refusal without a message"
        else:
            bad.append(f"{case.id} (exit {proc.returncode})")
    assert bad == []
    assert applied >= len(sample) // 2
