"""Terminal output of ``patchwright apply``: colours, diffstat, progress, quiet.

Start-up time matters, so this module imports only the standard library at load time;
Every text written is passed through :mod:`patchwright.model.quoting` first: a name or
a line holding an escape sequence or a control character is shown in git's quoting
(``"\\033[2J"``, ``\\f``), never sent raw to the terminal.

``rich`` is imported when a coloured diff, a coloured diffstat or a progress bar is
actually drawn, never for ``--color never``, ``NO_COLOR`` or a pipe.

Colour (``--color``): ``always`` and ``never`` mean what they say; ``auto`` (the
default) colours when the stream is a terminal, ``NO_COLOR`` is unset or empty
(https://no-color.org) and ``TERM`` is not ``dumb``. A progress bar goes to standard
error, only when it is a terminal and the apply has run for :data:`PROGRESS_DELAY`
seconds; it counts the files read out of those the patch names, then the commit.
"""

from __future__ import annotations

import os
import re
import sys
import threading
from collections.abc import Callable, Mapping

from patchwright.model.quoting import quote_name, visible, visible_lines

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from typing import IO, Any, TypeVar

    from patchwright.adapters.diffstat import LineKind
    from patchwright.api.report import ApplyReport
    from patchwright.workspace import Workspace

    T = TypeVar("T")

#: Seconds an apply runs before the progress bar appears.
PROGRESS_DELAY = 1.0
COLOR_CHOICES = ("auto", "always", "never")
_STYLES: dict[LineKind, str] = {
    "header": "bold",
    "hunk": "cyan",
    "add": "green",
    "del": "red",
    "note": "dim",
    "context": "",
}
_V4A_FILE = re.compile(r"^\*\*\* (?:Add|Update|Delete) File: ", re.MULTILINE)


def use_color(choice: str, stream: IO[str], environ: Mapping[str, str] | None = None) -> bool:
    """Whether to colour ``stream`` for ``--color choice`` (see the module docstring)."""
    if choice == "always":
        return True
    if choice == "never":
        return False
    env = os.environ if environ is None else environ
    if env.get("NO_COLOR") or env.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def _console(stream: IO[str]) -> Any:
    from rich.console import Console

    # force_terminal: --color always colours pipes too; no wrapping, no markup guessing
    return Console(file=stream, force_terminal=True, highlight=False, soft_wrap=True)


def write_diff(diff: str, stream: IO[str], *, color: bool) -> None:
    """Write a unified diff, coloured like git's when ``color``."""
    if not color:
        stream.write(visible_lines(diff))
        return
    from rich.text import Text

    from patchwright.adapters.diffstat import classify  # coloured output only: start-up time

    console = _console(stream)
    text = Text()
    for kind, line in classify(diff):
        text.append(visible(line), style=_STYLES[kind])
        text.append("\n")
    console.print(text, end="")


def write_stat(files: list[tuple[str, str]], stream: IO[str], *, color: bool) -> None:
    """Write git's diffstat for ``(path, diff)`` pairs."""
    from patchwright.adapters.diffstat import count, stat_lines  # --stat only: start-up time

    entries = [(quote_name(path), *count(diff)) for path, diff in files]
    width = 80
    if color:
        import shutil

        width = shutil.get_terminal_size((80, 24)).columns
    rows = stat_lines(entries, width)
    if not color:
        stream.write("".join(f"{text}{'+' * plus}{'-' * minus}\n" for text, plus, minus in rows))
        return
    from rich.text import Text

    out = Text()
    for text, plus, minus in rows:
        out.append(text)
        out.append("+" * plus, style="green")
        out.append("-" * minus, style="red")
        out.append("\n")
    _console(stream).print(out, end="")


def files_in(patch_text: str) -> int | None:
    """How many files a unified or OpenAI patch names (``None`` when unknown)."""
    v4a = len(_V4A_FILE.findall(patch_text))
    if v4a:
        return v4a
    from patchwright.adapters.diffstat import classify  # progress bar only: start-up time

    headers = (line for kind, line in classify(patch_text) if kind == "header")
    unified = sum(1 for line in headers if line.startswith("+++ "))
    return unified or None


def run_with_progress(
    work: Callable[[Callable[[], None] | None], T],
    total: int | None,
    stream: IO[str],
    *,
    delay: float | None = None,
) -> T:
    """Run ``work(tick)`` in a thread; after ``delay`` seconds (default
    :data:`PROGRESS_DELAY`) draw a bar on ``stream``.

    ``tick`` is called by the work once per file read; the bar shows those out of
    ``total``, then "writing" once all are read. ``work`` runs to its end even on
    Ctrl-C (a commit is never cut short by the display).
    """
    done = threading.Event()
    ticks = [0]
    outcome: list[T] = []
    failure: list[BaseException] = []

    def tick() -> None:
        ticks[0] += 1

    def target() -> None:
        try:
            outcome.append(work(tick))
        except BaseException as exc:  # re-raised in the caller's thread
            failure.append(exc)
        finally:
            done.set()

    worker = threading.Thread(target=target, name="patchwright-apply")
    worker.start()
    if not done.wait(PROGRESS_DELAY if delay is None else delay):
        _draw(done, ticks, total, stream)
    worker.join()
    if failure:
        raise failure[0]
    return outcome[0]


def _draw(done: threading.Event, ticks: list[int], total: int | None, stream: IO[str]) -> None:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn())  # fmt: skip
    with Progress(*columns, console=_console(stream), transient=True) as bar:
        task = bar.add_task("reading", total=total)
        while not done.wait(0.1):
            seen = ticks[0] if total is None else min(ticks[0], total)
            writing = total is not None and seen >= total
            bar.update(task, completed=seen, description="writing" if writing else "reading")


def counting_workspace(tick: Callable[[], None], root: str, **options: Any) -> Workspace:
    """A workspace on ``root`` that calls ``tick`` after every file it reads for a plan."""
    from patchwright.workspace import FileState, Workspace

    class Counting(Workspace):
        def read_if_exists(self, path: str, *, links: bool = False) -> FileState | None:
            try:
                return super().read_if_exists(path, links=links)
            finally:
                tick()

    return Counting(root, **options)


def print_outcome(report: ApplyReport, root: str, *, color: str, stat: bool, quiet: bool) -> None:
    """The summary, then the diff (or diffstat) of a report that is not a usage error.

    Success goes to standard output (nothing at all with ``quiet``); a refusal goes to
    standard error with the root folder the patch's paths were taken against.
    """
    if not report.ok:
        print(visible_lines(report.summary()), file=sys.stderr)
        print(f"Root folder: {quote_name(os.path.abspath(root))} (patch paths are relative to it; "
              "choose another with --root or strip leading folders with -p N).",
              file=sys.stderr)  # fmt: skip
        return
    if quiet:
        return
    print(visible_lines(report.summary()), flush=True)
    colored = use_color(color, sys.stdout)
    if stat:
        pairs = [(f.move_to or f.path, f.diff) for f in report.files]
        write_stat(pairs, sys.stdout, color=colored)
    elif report.diff:
        write_diff(report.diff, sys.stdout, color=colored)
