"""Coverage-guided fuzzing of patchwright for long runs, with atheris (libFuzzer).

Not a CI dependency: CI runs the bounded hypothesis profile of
tests/security/test_sec_fuzz.py. For hours-long runs::

    pip install atheris
    python fuzz/atheris_harness.py parsers -max_total_time=3600
    python fuzz/atheris_harness.py engine -runs=5000000 fuzz/corpus-engine/
    python fuzz/atheris_harness.py dispatcher -max_total_time=3600

The first argument picks the target, the rest go to libFuzzer (a folder argument is a
corpus it keeps growing). A finding is any exception other than PatchwrightError (and,
for the dispatcher, any ``internal`` result): libFuzzer stops and writes the input as
``crash-*``; replay it with ``python fuzz/atheris_harness.py TARGET crash-...``.
"""

from __future__ import annotations

import contextlib
import json
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path


def _parsers(data: bytes) -> None:
    from patchwright.formats import parse_patch
    from patchwright.model import PatchwrightError

    with contextlib.suppress(PatchwrightError):
        parse_patch(data.decode("utf-8", "replace"))


def _engine(data: bytes) -> None:
    from patchwright.engine import apply_file_patch
    from patchwright.formats import parse_patch
    from patchwright.model import PatchwrightError
    from patchwright.model.text import TextFile

    patch, _, original = data.partition(b"\0")
    try:
        files = parse_patch(patch.decode("utf-8", "replace")).files
        text = TextFile.decode(original)
    except PatchwrightError:
        return
    for one in files:
        with contextlib.suppress(PatchwrightError):
            apply_file_patch(text, one)


_TOOLBOX: list[object] = []


def _dispatcher(data: bytes) -> None:
    from patchwright.tools import TOOL_NAMES, Toolbox
    from patchwright.workspace import Workspace

    if not _TOOLBOX:
        base = Path(tempfile.mkdtemp(prefix="patchwright-atheris-"))
        (base / "root" / "d").mkdir(parents=True)
        (base / "root" / "a.txt").write_text("one\ntwo\n")
        _TOOLBOX.append(Toolbox(Workspace(base / "root", state_dir=base / "state")))
    toolbox = _TOOLBOX[0]
    assert isinstance(toolbox, Toolbox)
    name_index, _, rest = data.partition(b"\0")
    name = TOOL_NAMES[len(name_index) % len(TOOL_NAMES)]
    try:
        arguments = json.loads(rest.decode("utf-8", "replace"))
    except (ValueError, RecursionError):
        return
    result = toolbox.call(name, arguments)
    if result.error is not None and result.error.code.value == "internal":
        raise AssertionError(f"{name} answered internal: {result.text}")


TARGETS: dict[str, Callable[[bytes], None]] = {
    "parsers": _parsers,
    "engine": _engine,
    "dispatcher": _dispatcher,
}


def main(argv: list[str]) -> int:
    """Run one target under atheris; see the module docstring."""
    if len(argv) < 2 or argv[1] not in TARGETS:
        print(f"usage: {argv[0]} {{{','.join(TARGETS)}}} [libFuzzer options]", file=sys.stderr)
        return 2
    try:
        import atheris
    except ImportError:
        print("atheris is not installed: pip install atheris", file=sys.stderr)
        return 2
    target = TARGETS[argv[1]]
    with atheris.instrument_imports():
        import patchwright.engine
        import patchwright.formats
        import patchwright.tools  # noqa: F401
    atheris.Setup([argv[0], *argv[2:]], target)
    atheris.Fuzz()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
