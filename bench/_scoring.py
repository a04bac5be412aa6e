"""Scoring one corpus patch with one applier: applied, refused or WRONG.

The rules are the corpus README's: put ``before`` at ``path`` in an empty directory,
apply the patch, then

* **applied**: success reported and the file's bytes equal ``expected``;
* **refused**: failure reported and the file untouched;
* **WRONG**: anything else (success with other bytes, or a failure that changed or
  removed the file).

Appliers that run as processes (``git``, ``patch``) report success by exit status;
``patchwright`` runs in-process and reports it with ``report.applied``.
"""

from __future__ import annotations

import json
import signal
import subprocess
import tempfile
import time
import types
from dataclasses import asdict, dataclass
from pathlib import Path

from _common import ApplyPatchText, git_apply_argv, gnu_patch_argv, load_api, tool_env

APPLIED, REFUSED, WRONG = "applied", "refused", "WRONG"
VERDICTS = (APPLIED, REFUSED, WRONG)

# Which manifest formats each applier reads; the others are not offered to it.
APPLIER_FORMATS = {"git": ("udiff",), "patch": ("udiff",), "patchwright": ("udiff", "v4a", "sr")}


@dataclass(frozen=True)
class Entry:
    """One manifest line (paths relative to the corpus folder)."""

    id: str
    case: str
    format: str
    kind: str
    path: str
    before: str
    patch: str
    expected: str


@dataclass(frozen=True)
class Result:
    """One applier's verdict on one patch.

    Attributes:
        success: the applier reported success (exit status 0, ``report.applied``).
        note: what went wrong, for inspection: the tool's last stderr line, the
            exception an in-process call raised, or ``timeout``.
        raised: the in-process call raised (the API promises not to, for refusals).
    """

    id: str
    applier: str
    format: str
    kind: str
    verdict: str
    seconds: float
    success: bool
    note: str = ""
    raised: bool = False


def load_manifest(corpus: Path) -> list[Entry]:
    """Every patch listed in ``corpus/manifest.jsonl``."""
    entries = []
    with open(corpus / "manifest.jsonl", encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                raw = json.loads(line)
                entries.append(Entry(**{k: raw[k] for k in Entry.__dataclass_fields__}))
    return entries


def verdict(success: bool, got: bytes | None, before: bytes, want: bytes) -> str:
    """The corpus verdict for a run that reported ``success`` and left ``got`` behind."""
    if success:
        return APPLIED if got == want else WRONG
    return REFUSED if got == before else WRONG


class _Timeout(Exception):
    """Raised by the alarm handler inside a too-long in-process call."""


def _on_alarm(signum: int, frame: types.FrameType | None) -> None:
    raise _Timeout


_API: list[ApplyPatchText | None] = []


def _api() -> ApplyPatchText | None:
    # Loaded once per worker process: the import is the slow part.
    if not _API:
        _API.append(load_api()[0])
    return _API[0]


def _run_tool(argv: list[str], root: Path, timeout: float) -> tuple[bool, str]:
    try:
        done = subprocess.run(
            argv, cwd=root, env=tool_env(), capture_output=True, timeout=timeout, check=False
        )
    except subprocess.TimeoutExpired:
        return False, "timeout"
    lines = (done.stderr or done.stdout).decode(errors="replace").strip().splitlines()
    return done.returncode == 0, (lines[-1][:300] if lines and done.returncode else "")


def _run_patchwright(text: str, root: Path, timeout: float) -> tuple[bool, str, bool]:
    api = _api()
    if api is None:
        return False, "patchwright.api unavailable", True
    previous = signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        report = api(text, root)
        return bool(report.applied), "", False
    except _Timeout:
        return False, "timeout", True
    except Exception as exc:  # reported per patch; one bad case must not end the run
        return False, f"raised {type(exc).__name__}: {str(exc)[:300]}", True
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def score(applier: str, entry: Entry, corpus: Path, timeout: float) -> Result:
    """Apply ``entry``'s patch with ``applier`` in a fresh directory and judge the result."""
    before = (corpus / entry.before).read_bytes()
    want = (corpus / entry.expected).read_bytes()
    patch_file = (corpus / entry.patch).resolve()
    raised = False
    with tempfile.TemporaryDirectory(prefix="pw-corpus-") as tmp:
        root = Path(tmp)
        target = root / entry.path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(before)
        start = time.perf_counter()
        if applier == "patchwright":
            # newline="" semantics: the patch text keeps its own line endings.
            text = patch_file.read_bytes().decode("utf-8")
            success, note, raised = _run_patchwright(text, root, timeout)
        else:
            argv = git_apply_argv(patch_file) if applier == "git" else gnu_patch_argv(patch_file)
            success, note = _run_tool(argv, root, timeout)
        seconds = time.perf_counter() - start
        try:
            got: bytes | None = target.read_bytes()
        except OSError:
            got = None
    return Result(
        entry.id,
        applier,
        entry.format,
        entry.kind,
        verdict(success, got, before, want),
        seconds,
        success,
        note,
        raised,
    )


def score_job(job: tuple[str, Entry, str, float]) -> Result:
    """:func:`score` taking one picklable tuple, for a process pool's ``map``."""
    applier, entry, corpus, timeout = job
    return score(applier, entry, Path(corpus), timeout)


def results_json(results: list[Result], meta: dict[str, object]) -> str:
    """Per-patch results as a JSON document (``meta`` first, then ``results``)."""
    return json.dumps({**meta, "results": [asdict(r) for r in results]}, indent=1)
