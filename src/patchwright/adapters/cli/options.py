"""Command-line options shared by several subcommands, each defined once.

Imports little (``argparse`` and the policy names): ``patchwright apply`` loads it on
every run.
"""

from __future__ import annotations

import argparse

from patchwright.syntax.policy import POLICIES


def add_encoding(parser: argparse.ArgumentParser, *, of: str = "files") -> None:
    """``--encoding``, shared by ``apply``, ``call`` and ``mcp`` (``of`` says what it
    names the encoding of)."""
    parser.add_argument(
        "--encoding",
        default=None,
        metavar="NAME",
        help=f"encoding of {of} that are neither UTF-8 nor UTF-16, e.g. cp1252, shift_jis, "
        "gbk (default: detected)",
    )


def add_syntax(parser: argparse.ArgumentParser, *, after: str = "each edit") -> None:
    """``--syntax``, shared by ``apply``, ``call`` and ``mcp`` (``after`` says after what
    the check runs)."""
    parser.add_argument(
        "--syntax",
        default="warn",
        choices=POLICIES,
        help=f"syntax check of changed files that have a parser, after {after}: warn about "
        "errors it introduces (default), reject it, or off",
    )
