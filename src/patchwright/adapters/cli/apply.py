"""``patchwright apply``: apply a patch file to a folder, all files or none.

Exit codes: 0 applied (or, with ``--dry-run``, would apply), 1 refused with nothing
changed (the report says which file and hunk failed, in spec 002's form), 2 usage error
(unreadable patch file, bad option value, a ``--root`` that is not a folder).
"""

from __future__ import annotations

import argparse
import json
import sys

from patchwright.adapters.cli.options import add_encoding, add_syntax
from patchwright.model.errors import PatchwrightError
from patchwright.model.quoting import quote_name, visible_lines

TYPE_CHECKING = False  # no ``typing`` import: start-up time
if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Callable

    from patchwright.api.report import ApplyReport


def configure_apply(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``patchwright apply``."""
    parser.add_argument(
        "patch",
        nargs="?",
        default="-",
        metavar="PATCH_FILE",
        help="the patch to apply; '-' or nothing reads standard input",
    )
    parser.add_argument("--root", default=".", help="folder the patch's paths are relative to")
    parser.add_argument(
        "--format",
        default="auto",
        choices=["auto", "unified", "v4a", "search-replace", "snippet"],
        help="patch format (default: detected); 'snippet' is a lazy edit snippet of the "
        "file named by --path",
    )
    parser.add_argument(
        "--path",
        default=None,
        metavar="PATH",
        help="with --format snippet: the file the snippet edits (relative to --root)",
    )
    parser.add_argument(
        "--mode",
        default="fuzzy",
        choices=["strict", "tolerant", "fuzzy"],
        help="how hard to look for each hunk (default: fuzzy)",
    )
    parser.add_argument(
        "--fuzzy-threshold",
        type=float,
        default=0.8,
        metavar="F",
        help="minimum similarity for fuzzy matches, 0.5-1.0 (default 0.8)",
    )
    add_syntax(parser, after="the patch")
    add_encoding(parser, of="the patch and files")
    parser.add_argument("--dry-run", action="store_true", help="check only; write nothing")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--no-history", action="store_true", help="do not record the change in the history"
    )
    parser.add_argument(
        "--max-file-mb",
        type=float,
        default=None,
        metavar="MB",
        help="refuse files larger than this (default 16)",
    )
    parser.add_argument(
        "--max-patch-mb",
        type=float,
        default=64.0,
        metavar="MB",
        help="refuse a patch larger than this, before reading it whole (default 64)",
    )
    # output and patch options (rendering lives in terminal.py, rewriting in patch_options.py)
    parser.add_argument("--check", action="store_true", dest="dry_run", help="same as --dry-run")
    parser.add_argument(
        "--color", default="auto", choices=["auto", "always", "never"],
        help="colour the diff: auto (a terminal without NO_COLOR), always or never",
    )  # fmt: skip
    parser.add_argument("--stat", action="store_true", help="print a diffstat, not the diff")
    parser.add_argument(
        "-q", "--quiet", action="store_true", help="print nothing when the patch applies"
    )
    parser.add_argument(
        "-p", "--strip", type=int, default=None, metavar="N",
        help="remove N leading folders from the patch's file names (unified diffs)",
    )  # fmt: skip
    parser.add_argument(
        "-R", "--reverse", action="store_true", help="apply the patch backwards (unified diffs)"
    )


def run_apply(args: argparse.Namespace) -> int:
    """Exit 0 when applied (or would apply), 1 when refused, 2 on a usage error."""
    from patchwright.adapters.limits import mb_to_bytes

    try:
        text = _read_patch(args.patch, mb_to_bytes(args.max_patch_mb), args.encoding)
    except PatchwrightError as exc:  # over --max-patch-mb, or text it cannot decode
        from patchwright.model.encoding import OPTION_NEXT_STEP, with_next_step

        option = f"{_option(exc.field)}: " if exc.field in _USAGE_FIELDS else ""
        with_next_step(exc, OPTION_NEXT_STEP)
        print(visible_lines(f"patchwright apply: {option}{exc.render()}"), file=sys.stderr)
        return 2
    except OSError as exc:
        print(
            f"patchwright apply: cannot read {quote_name(args.patch)}: {exc.strerror}",
            file=sys.stderr,
        )
        return 2
    try:
        text = _rewrite(text, args)
        if args.path is not None and args.format != "snippet":
            raise ValueError("--path names the file of a snippet: use it with --format snippet")
        if args.format == "snippet" and not args.path:
            raise ValueError(
                "--format snippet needs --path: a snippet names no file (give the path of "
                "the file it edits, relative to --root)"
            )
    except ValueError as exc:
        print(visible_lines(f"patchwright apply: {exc}"), file=sys.stderr)
        return 2
    report = _apply(text, args)
    err = report.error
    if err is not None:
        from patchwright.model.encoding import OPTION_NEXT_STEP, with_next_step

        with_next_step(err, OPTION_NEXT_STEP)
    usage = err is not None and err.field in _USAGE_FIELDS
    if args.json:
        print(json.dumps(report.to_dict(), indent=2, ensure_ascii=False))
    elif usage and err is not None:
        # a bad argument, not a bad patch: say so the way argparse does
        print(
            visible_lines(f"patchwright apply: {_option(err.field)}: {err.message}"),
            file=sys.stderr,
        )
        if err.hint:
            print(visible_lines(f"Hint: {err.hint}"), file=sys.stderr)
    else:
        from patchwright.adapters.cli.terminal import print_outcome

        print_outcome(report, args.root, color=args.color, stat=args.stat, quiet=args.quiet)
    if usage:
        return 2
    return 0 if report.ok else 1


# report.error.field values that name a command-line argument, not part of the patch
_USAGE_FIELDS = ("mode", "fuzzy_threshold", "root", "syntax", "encoding")


def _option(name: str | None) -> str:
    return "--" + (name or "").replace("_", "-")


def _rewrite(text: str, args: argparse.Namespace) -> str:
    """``-p N`` and ``-R`` (see patch_options.py); ValueError names what to change."""
    if args.strip is None and not args.reverse:
        return text
    from patchwright.adapters.cli.patch_options import reverse, strip_paths
    from patchwright.formats import detect_format, normalize_format

    if args.strip is not None and args.strip < 0:
        raise ValueError(f"-p takes a number of folders, 0 or more (got {args.strip})")
    chosen = normalize_format(args.format) if args.format != "auto" else detect_format(text)
    if chosen != "unified":
        raise ValueError(f"-p and -R work on unified diffs; this patch is {chosen}")
    if args.strip is not None:
        text = strip_paths(text, args.strip)
    return reverse(text) if args.reverse else text


def _apply(text: str, args: argparse.Namespace) -> ApplyReport:
    """Apply, with a progress bar on standard error when the apply runs long."""
    from patchwright.api import apply_patch_text

    max_bytes = None if args.max_file_mb is None else int(args.max_file_mb * 2**20)

    def work(tick: Callable[[], None] | None) -> ApplyReport:
        workspace = None
        if tick is not None:
            import contextlib

            from patchwright.adapters.cli.terminal import counting_workspace
            from patchwright.model import PatchwrightError
            from patchwright.workspace import DEFAULT_MAX_FILE_BYTES

            with contextlib.suppress(PatchwrightError):  # a bad --root: reported below
                workspace = counting_workspace(
                    tick, args.root, history=not args.no_history,
                    max_file_bytes=max_bytes or DEFAULT_MAX_FILE_BYTES,
                )  # fmt: skip
        return apply_patch_text(
            text,
            args.root,
            format=args.format,
            mode=args.mode,
            fuzzy_threshold=args.fuzzy_threshold,
            dry_run=args.dry_run,
            workspace=workspace,
            history=not args.no_history,
            max_file_bytes=max_bytes,
            syntax=args.syntax,
            path=args.path,
            encoding=args.encoding,
        )

    from patchwright.adapters.cli.terminal import use_color

    if args.json or args.quiet or not use_color(args.color, sys.stderr):
        return work(None)
    from patchwright.adapters.cli.terminal import files_in, run_with_progress

    return run_with_progress(work, 1 if args.path else files_in(text), sys.stderr)


def _read_patch(name: str, limit: int, encoding: str | None) -> str:
    """The patch's text: UTF-8 as it is, else decoded like a file of the workspace
    (a BOM, UTF-16, ``--encoding``, else the detected encoding)."""
    from patchwright.adapters.limits import read_limited

    what = "The patch on standard input" if name == "-" else f"The patch {name}"
    if name == "-":
        data = read_limited(sys.stdin.buffer, limit, what, "--max-patch-mb")
    else:
        with open(name, "rb") as fh:
            data = read_limited(fh, limit, what, "--max-patch-mb")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    from patchwright.workspace.encoding import decode_file

    where = "The patch on standard input" if name == "-" else name
    return decode_file(data, where, encoding=encoding).text
