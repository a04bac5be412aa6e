"""Command-line options shared by several subcommands, each defined once.

Imports nothing but ``argparse``: ``patchwright apply`` loads it on every run.
"""

from __future__ import annotations

import argparse


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
