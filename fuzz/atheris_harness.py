"""Coverage-guided fuzzing of patchwright for long runs, with atheris (libFuzzer).

Not a CI dependency: CI runs the bounded hypothesis profile of
tests/security/test_sec_fuzz.py. For hours-long runs::

    pip install atheris
    python fuzz/atheris_harness.py parsers -max_total_time=3600
    python fuzz/atheris_harness.py engine -runs=5000000 fuzz/corpus-engine/
    python fuzz/atheris_harness.py dispatcher -max_total_time=3600
    python fuzz/atheris_harness.py splitter -max_total_time=3600
    python fuzz/atheris_harness.py quoting -max_total_time=3600

The first argument picks the target, the rest go to libFuzzer (a folder argument is a
corpus it keeps growing). A finding is any exception other than PatchwrightError (and,
for the dispatcher, any ``internal`` result; for the splitter, a diff row that is not a
line of the text model or a hunk whose rows differ from its header; for the quoting, a
control character left raw, a row lost, or a quoted name that does not read back):
libFuzzer stops and writes the input as ``crash-*``; replay it with
``python fuzz/atheris_harness.py TARGET crash-...``.
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


def _splitter(data: bytes) -> None:
    from patchwright.adapters.diffstat import classify
    from patchwright.engine.diff import unified_diff
    from patchwright.model.text import split_lines

    old, _, new = data.decode("utf-8", "replace").partition("\0")
    diff = unified_diff(old, new, "a/x", "b/x")
    lines = {"del": set(split_lines(old)[0]), "add": set(split_lines(new)[0])}
    announced = [0, 0]
    for kind, row in classify(diff):
        if kind == "hunk":
            if announced != [0, 0]:
                raise AssertionError(f"a hunk ended {announced} rows short: {diff!r}")
            counts = [c.split(",") for c in row.split(" ")[1:3]]
            announced = [int(c[1]) if len(c) > 1 else 1 for c in counts]
        elif kind in ("context", "del", "add"):
            announced[0] -= kind in ("context", "del")
            announced[1] -= kind in ("context", "add")
            if kind in lines and row[1:] not in lines[kind]:
                raise AssertionError(f"{kind} row {row!r} is no line of the text: {diff!r}")
    if announced != [0, 0]:
        raise AssertionError(f"the last hunk ended {announced} rows short: {diff!r}")


def _quoting(data: bytes) -> None:
    from patchwright.formats._diff_paths import unquote_c
    from patchwright.model.quoting import quote_name, visible_lines

    text = data.decode("utf-8", "replace")
    shown = visible_lines(text)
    if shown.count("\n") != text.count("\n"):
        raise AssertionError(f"rows lost or added: {text!r}")
    for row in shown.split("\n"):
        body = row[:-1] if row.endswith("\r") else row
        if not all(ch == "\t" or (ch.isprintable() and ch != "\u202e") for ch in body):
            raise AssertionError(f"a control character left raw: {row!r}")
    name = quote_name(text)
    if name != text and unquote_c(name, 0, 1) != (text, len(name)):
        raise AssertionError(f"{name!r} does not read back as {text!r}")


TARGETS: dict[str, Callable[[bytes], None]] = {
    "parsers": _parsers,
    "engine": _engine,
    "dispatcher": _dispatcher,
    "splitter": _splitter,
    "quoting": _quoting,
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
        import patchwright.adapters.diffstat
        import patchwright.engine
        import patchwright.formats
        import patchwright.model.quoting
        import patchwright.tools  # noqa: F401
    atheris.Setup([argv[0], *argv[2:]], target)
    atheris.Fuzz()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
