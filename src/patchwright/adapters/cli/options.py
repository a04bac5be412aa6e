"""Command-line options shared by several subcommands, each defined once.

Imports little (``argparse``, ``sys`` and the syntax policies' names): ``patchwright
apply`` loads it on every run.
"""

from __future__ import annotations

import argparse
import sys

from patchwright.syntax.policy import POLICIES

#: What ``--access`` takes: ``restricted`` refuses every write, reading still works.
ACCESS_MODES = ("restricted", "unrestricted")


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


class _OldAccessSpelling(argparse.Action):
    """``--mode restricted|unrestricted``, the old spelling of ``--access``: it still works,
    and says the new name on standard error (``--mode`` is the matching mode of
    ``patchwright apply`` and of the tools' ``mode`` field)."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        print(
            f"{parser.prog}: --mode {values} is deprecated, use --access {values} "
            "(--mode is the matching mode, as in patchwright apply)",
            file=sys.stderr,
        )
        setattr(namespace, self.dest, values)


def add_access(parser: argparse.ArgumentParser) -> None:
    """``--access restricted|unrestricted``, shared by ``call`` and ``mcp``, and its old
    spelling ``--mode`` (hidden from the help)."""
    parser.add_argument(
        "--access",
        default="unrestricted",
        choices=ACCESS_MODES,
        help="restricted refuses every write; reading still works (default: unrestricted)",
    )
    parser.add_argument(
        "--mode",
        dest="access",
        choices=ACCESS_MODES,
        action=_OldAccessSpelling,
        help=argparse.SUPPRESS,
    )
