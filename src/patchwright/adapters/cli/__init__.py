"""The ``patchwright`` command line.

Start-up must stay cheap: this module imports only ``argparse`` and ``sys``; each
subcommand's module (and its heavy dependencies) is imported only when that subcommand
runs. ``--version`` answers before anything else is loaded.

Subcommands live in the modules of this package (``apply``, ``tools``, ``mcp``...), each
exposing
``configure_<name>(parser)`` and ``run_<name>(args) -> int`` (a ``-`` in the command's
name is ``_`` in the function's). Exit codes: 0 success, 1 refused (nothing
changed), 2 usage error, 70 internal error (one line on standard error, never a
traceback), 130 interrupted by Ctrl-C (a commit in progress is rolled back, at the latest
when the workspace next opens), 141 standard output closed early (``patchwright tools |
head``: nothing more is written, quietly, as for SIGPIPE).
"""

from __future__ import annotations

import sys
from contextlib import suppress
from importlib import import_module

TYPE_CHECKING = False  # no ``typing`` import: start-up time
if TYPE_CHECKING:  # pragma: no cover
    import argparse
    from typing import NoReturn

# subcommand -> (module, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "apply": (
        "patchwright.adapters.cli.apply",
        "apply a patch file (unified, OpenAI, SEARCH/REPLACE)",
    ),
    "call": ("patchwright.adapters.cli.tools", "call one tool with JSON arguments"),
    "tools": ("patchwright.adapters.cli.tools", "print the tool schemas"),
    "log": ("patchwright.adapters.cli.history", "list recent batches of changes"),
    "history": ("patchwright.adapters.cli.history", "manage the history store (migrate)"),
    "mcp": (
        "patchwright.adapters.cli.mcp",
        "serve the tools over MCP (stdio, or HTTP with --http)",
    ),
    "show": ("patchwright.adapters.cli.history", "show one batch, file patch or change by ID"),
    "undo": ("patchwright.adapters.cli.history", "revert a batch (default: the latest)"),
    "review": ("patchwright.adapters.review.cli", "browse, undo and approve changes in a web page"),
    "apply-server": (
        "patchwright.adapters.cli.apply_server",
        "answer fast-apply requests (Morph/Relace-compatible) with the snippet merge",
    ),
    "pending": ("patchwright.adapters.cli.approval", "list changes waiting for approval"),
    "approve": ("patchwright.adapters.cli.approval", "write a change waiting for approval"),
    "reject": ("patchwright.adapters.cli.approval", "refuse a change waiting for approval"),
}


def _version() -> str:
    from patchwright import __version__

    return __version__


def build_parser() -> argparse.ArgumentParser:
    """The full parser (imports every subcommand's module to configure it)."""
    import argparse

    parser = argparse.ArgumentParser(
        prog="patchwright",
        description="Precise, safe file editing for LLM coding agents.",
    )
    parser.add_argument("--version", action="version", version=f"patchwright {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module, help_text) in COMMANDS.items():
        sp = sub.add_parser(name, help=help_text, description=help_text)
        configure = getattr(import_module(module), f"configure_{_ident(name)}")
        configure(sp)
    return parser


EXIT_INTERNAL = 70
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141


def main(argv: list[str] | None = None) -> int:
    """The command line with ``argv`` (default: the process's arguments); returns the
    exit code (:func:`run` is the console script around it).

    Whatever happens below, no traceback reaches the user (see the exit codes above).
    """
    try:
        return _main(argv)
    except KeyboardInterrupt:
        _say(
            "patchwright: interrupted. No file is left half-written: a commit that had not "
            "finished was rolled back (or is, when the workspace next opens)."
        )
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except RecursionError:
        _say("patchwright: the input is nested too deeply to process; nothing was changed.")
        return EXIT_INTERNAL
    except Exception as exc:
        _say(
            f"patchwright: internal error ({type(exc).__name__}: {exc}); nothing was changed "
            "beyond what a completed commit wrote. Please report it."
        )
        return EXIT_INTERNAL


def run() -> NoReturn:
    """The console script and ``python -m patchwright``: :func:`main`, then exit with its
    code (a reader of standard output that went away meanwhile is told as for SIGPIPE,
    quietly)."""
    code = main()
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
        code = code or EXIT_BROKEN_PIPE
    except (OSError, ValueError, AttributeError):
        pass  # closed or replaced: nothing of it left to write
    sys.exit(code)


def _say(line: str) -> None:
    with suppress(OSError, ValueError):  # standard error gone too: the exit code is left
        print(line, file=sys.stderr, flush=True)


def _silence_stdout() -> None:
    # the reader went away: point stdout at /dev/null so the interpreter's final flush
    # does not fail again on exit
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


def _main(argv: list[str] | None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args in (["--version"], ["-V"]):
        print(f"patchwright {_version()}")
        return 0
    if args and args[0] in COMMANDS and not any(a in ("-h", "--help") for a in args[:1]):
        return _run_one(args[0], args[1:])
    parser = build_parser()
    if not args:
        parser.print_help()
        return 2
    try:
        parser.parse_args(args)
    except SystemExit as exc:  # argparse exits 0 for --help, 2 for errors
        return int(exc.code or 0)
    return 2


def _unmeasured() -> type[argparse.HelpFormatter]:
    import argparse

    class Unmeasured(argparse.HelpFormatter):
        """argparse's formatter at a fixed width, for adding arguments only.

        argparse formats every argument it is given to check its metavar, with a new
        formatter each time, and the default one imports ``shutil`` (which loads the
        compression modules) to measure the terminal: a cost for every run of the
        command that the check, which ignores the width, does not need.
        """

        def __init__(self, prog: str) -> None:
            super().__init__(prog, width=80)

    return Unmeasured


def _run_one(name: str, rest: list[str]) -> int:
    """Parse and run one subcommand, importing only its module."""
    import argparse

    module_name, help_text = COMMANDS[name]
    module = import_module(module_name)
    parser = argparse.ArgumentParser(
        prog=f"patchwright {name}", description=help_text, formatter_class=_unmeasured()
    )
    getattr(module, f"configure_{_ident(name)}")(parser)
    # help, usage and errors measure the terminal, as before
    parser.formatter_class = argparse.HelpFormatter
    try:
        args = parser.parse_args(rest)
    except SystemExit as exc:
        return int(exc.code or 0)
    code: int = getattr(module, f"run_{_ident(name)}")(args)
    return code


def _ident(name: str) -> str:
    """The Python name part of a subcommand (``apply-server`` -> ``apply_server``)."""
    return name.replace("-", "_")


if __name__ == "__main__":  # pragma: no cover
    run()
