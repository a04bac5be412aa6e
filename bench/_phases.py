"""Where an in-process apply spends its time: each step of ``apply_patch_text`` timed.

The steps are the functions ``patchwright.api.apply`` and the write path it hands its
files to (``patchwright.writing``) call, wrapped for the runs with a
``perf_counter`` pair each (a step it no longer calls shows 0, one that was renamed is
left out and named in the output). Each step's median over the runs is printed with the
whole apply's median; "other" is what no step covers (planning bookkeeping, freeing the
old text, closing the history).
"""

from __future__ import annotations

import gc
import importlib
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from _common import render_table
from _synth import SynthCase

# (label, module, attribute path): in the order an apply reaches them
STEPS: tuple[tuple[str, str, str], ...] = (
    ("parse the patch", "patchwright.api.apply", "parse_patch"),
    ("read and hash the file", "patchwright.workspace.workspace", "Workspace.read_if_exists"),
    (
        "  every read and hash (the plan's, the commit's)",
        "patchwright.workspace.sandbox",
        "Sandbox.read",
    ),
    ("decode and split", "patchwright.model.text", "TextFile.decode"),
    ("locate and splice", "patchwright.api.apply", "apply_file_patch"),
    ("history change records", "patchwright.api.apply", "_records"),
    ("the report's diff", "patchwright.writing.diff", "unified_diff"),
    ("syntax guard", "patchwright.writing.stage", "guard"),
    ("encode", "patchwright.model.text", "TextFile.encode_releasing"),
    ("commit: records, ids, new hash", "patchwright.workspace.commit", "_Draft.build"),
    ("commit: temp file, fsync, rename", "patchwright.workspace.direct", "_place"),
    ("commit: history rows and contents", "patchwright.workspace.history.store", "History.insert"),
    ("commit (whole)", "patchwright.workspace.workspace", "Workspace.commit"),
)
# steps that run inside another one: not subtracted again for "other"
_NESTED = {
    "  every read and hash (the plan's, the commit's)",
    "commit: records, ids, new hash",
    "commit: temp file, fsync, rename",
    "commit: history rows and contents",
}


def _owner(module: str, path: str) -> tuple[Any, str] | None:
    """The object holding the step's function and its attribute name, if it exists."""
    owner: Any = importlib.import_module(module)
    *parents, name = path.split(".")
    for part in parents:
        owner = getattr(owner, part, None)
        if owner is None:
            return None
    return (owner, name) if hasattr(owner, name) else None


@contextmanager
def _timed(spent: dict[str, float], missing: list[str]) -> Iterator[None]:
    """Wrap every step so its calls add their time to ``spent[label]``."""
    undo: list[Callable[[], None]] = []
    for label, module, path in STEPS:
        found = _owner(module, path)
        if found is None:
            missing.append(f"{module}.{path}")
            continue
        owner, name = found
        raw = owner.__dict__.get(name)  # a classmethod stays one
        inner = getattr(owner, name)

        def wrapper(*args: Any, _f: Any = inner, _l: str = label, **kw: Any) -> Any:
            start = time.perf_counter()
            try:
                return _f(*args, **kw)
            finally:
                spent[_l] += time.perf_counter() - start

        if isinstance(raw, classmethod):
            setattr(owner, name, classmethod(lambda cls, *a, _w=wrapper, **k: _w(*a, **k)))
        else:
            setattr(owner, name, wrapper)
        if raw is None:  # inherited: removing the wrapper uncovers it again
            undo.append(lambda o=owner, n=name: delattr(o, n))
        else:
            undo.append(lambda o=owner, n=name, r=raw: setattr(o, n, r))
    try:
        yield
    finally:
        for restore in undo:
            restore()


def phase_table(case: SynthCase, fmt: str, text: str, runs: int) -> str:
    """Median ms per step of ``runs`` in-process applies of ``text`` to fresh copies."""
    from patchwright.api import apply_patch_text

    per_step: dict[str, list[float]] = {label: [] for label, _, _ in STEPS}
    totals: list[float] = []
    missing: list[str] = []
    with tempfile.TemporaryDirectory(prefix="pw-phases-") as tmp:
        file = Path(tmp) / case.path
        file.parent.mkdir(parents=True)
        with _timed(spent := dict.fromkeys(per_step, 0.0), missing):
            for _ in range(runs):
                file.write_bytes(case.before_bytes)
                gc.collect()
                for label in spent:
                    spent[label] = 0.0
                start = time.perf_counter()
                report = apply_patch_text(text, tmp, max_file_bytes=2**30)
                totals.append(time.perf_counter() - start)
                if not report.applied or file.read_bytes() != case.after_bytes:
                    raise RuntimeError(f"{fmt}: the in-process apply gave a wrong result")
                for label, value in spent.items():
                    per_step[label].append(value)
    medians = {label: statistics.median(v) * 1000 for label, v in per_step.items()}
    total = statistics.median(totals) * 1000
    covered = sum(ms for label, ms in medians.items() if label not in _NESTED)
    rows = [(label, f"{ms:.1f}") for label, ms in medians.items()]
    rows += [("other (bookkeeping, freeing, closing)", f"{total - covered:.1f}")]
    rows += [(f"whole apply_patch_text ({fmt}, median of {runs})", f"{total:.1f}")]
    out = render_table(("step", "ms"), rows)
    if missing:
        out += "\nnot found (renamed?): " + ", ".join(missing)
    return out
