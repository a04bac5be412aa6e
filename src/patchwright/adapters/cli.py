"""The ``patchwright`` command line.

Start-up must stay cheap: this module imports only ``argparse`` and ``sys``; each
subcommand's module (and its heavy dependencies) is imported only when that subcommand
runs. ``--version`` answers before anything else is loaded.

Subcommands live in sibling modules ``cli_<name>.py``, each exposing
``configure(parser)`` and ``run(args) -> int``. Exit codes: 0 success, 1 refused (nothing
changed), 2 usage error.
"""

from __future__ import annotations

import sys
from importlib import import_module

TYPE_CHECKING = False  # no ``typing`` import: start-up time
if TYPE_CHECKING:  # pragma: no cover
    import argparse

# subcommand -> (module, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "apply": (
        "patchwright.adapters.cli_apply",
        "apply a patch file (unified, OpenAI, SEARCH/REPLACE)",
    ),
    "call": ("patchwright.adapters.cli_tools", "call one tool with JSON arguments"),
    "tools": ("patchwright.adapters.cli_tools", "print the tool schemas"),
    "log": ("patchwright.adapters.cli_history", "list recent batches of changes"),
    "mcp": (
        "patchwright.adapters.cli_mcp",
        "serve the tools over MCP (stdio, or HTTP with --http)",
    ),
    "show": ("patchwright.adapters.cli_history", "show one batch, file patch or change by ID"),
    "undo": ("patchwright.adapters.cli_history", "revert a batch (default: the latest)"),
    "review": ("patchwright.adapters.review.cli", "browse, undo and approve changes in a web page"),
    "pending": ("patchwright.adapters.cli_approval", "list changes waiting for approval"),
    "approve": ("patchwright.adapters.cli_approval", "write a change waiting for approval"),
    "reject": ("patchwright.adapters.cli_approval", "refuse a change waiting for approval"),
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
        configure = getattr(import_module(module), f"configure_{name}")
        configure(sp)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script; returns the exit code."""
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


def _run_one(name: str, rest: list[str]) -> int:
    """Parse and run one subcommand, importing only its module."""
    import argparse

    module_name, help_text = COMMANDS[name]
    module = import_module(module_name)
    parser = argparse.ArgumentParser(prog=f"patchwright {name}", description=help_text)
    getattr(module, f"configure_{name}")(parser)
    try:
        args = parser.parse_args(rest)
    except SystemExit as exc:
        return int(exc.code or 0)
    code: int = getattr(module, f"run_{name}")(args)
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
