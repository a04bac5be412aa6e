"""``patchwright call`` and ``patchwright tools``: the tool layer from the shell.

``patchwright call TOOL [ARGS_JSON|-]`` runs one tool on a workspace and prints the
:class:`~patchwright.model.ToolResult` as JSON: exit 0 when the call succeeded, 1 when it
was refused (nothing changed), 2 on a usage error (unknown tool, arguments that are not
a JSON object, a root that is not a folder). The named session (``--session``, default
``default``) keeps clipboards, notes and metrics between calls, in the workspace's state
folder; the history is the workspace's own.

``patchwright tools --format openai|anthropic|mcp|json-schema`` prints the schemas of
the exposed tools (``--strict``: OpenAI's strict variant; ``--cache-control``:
Anthropic's cache mark on the last tool); ``--stats`` prints each preset's tool count
and size instead.

Every command that exposes tools (``call``, ``tools``, ``mcp``) takes the same
selection: ``--preset NAME`` (default ``default``) or ``--tools NAMES``, ``--rename``,
``--legacy-edits``; :func:`toolbox_options` turns them into ``Toolbox`` arguments.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from patchwright.adapters.cli.options import add_access, add_encoding, add_syntax

if TYPE_CHECKING:  # pragma: no cover
    from patchwright.model import PatchwrightError


def add_selection(parser: argparse.ArgumentParser) -> None:
    """The tool-selection options shared by ``call``, ``tools`` and ``mcp``."""
    parser.add_argument(
        "--preset",
        metavar="NAME",
        help="the tool set to expose: default, anthropic, openai, claude-code or spec "
        "(default: default)",
    )
    parser.add_argument(
        "--tools",
        metavar="NAMES",
        help="comma-separated canonical names of single tools to expose (instead of a preset)",
    )
    parser.add_argument(
        "--rename",
        action="append",
        default=[],
        metavar="OLD=NEW",
        help="expose tool OLD as NEW (repeatable), e.g. apply_diff=patch",
    )
    parser.add_argument(
        "--legacy-edits",
        action="store_true",
        help="document_edit offers only the legacy actions (no patch)",
    )


def configure_call(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``patchwright call``."""
    parser.add_argument("tool", help="the tool to call (its exposed name)")
    parser.add_argument(
        "arguments",
        nargs="?",
        default="{}",
        metavar="ARGS_JSON",
        help="the arguments as one JSON object; '-' reads them from standard input",
    )
    parser.add_argument("--root", default=".", help="the workspace folder (default: here)")
    parser.add_argument(
        "--max-args-mb",
        type=float,
        default=64.0,
        metavar="MB",
        help="refuse arguments larger than this, before reading them whole (default 64)",
    )
    parser.add_argument("--session", default="default", help="session name (default: default)")
    add_access(parser)
    add_encoding(parser)
    add_syntax(parser)
    add_selection(parser)


def configure_tools(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``patchwright tools``."""
    parser.add_argument(
        "--format",
        default="json-schema",
        choices=["openai", "anthropic", "mcp", "json-schema"],
        help="the shape of each tool definition (default: json-schema)",
    )
    parser.add_argument(
        "--strict", action="store_true", help="OpenAI strict schemas (with --format openai)"
    )
    parser.add_argument(
        "--cache-control",
        action="store_true",
        help="mark the last tool for prompt caching (with --format anthropic)",
    )
    parser.add_argument(
        "--stats", action="store_true", help="print each preset's tool count and size"
    )
    add_selection(parser)


def toolbox_options(args: argparse.Namespace) -> dict[str, Any]:
    """The ``Toolbox`` keyword arguments the selection options ask for.

    Raises:
        ValueError: a malformed ``--rename``.
    """
    return {
        "tools": parse_names(args.tools),
        "rename": parse_renames(args.rename),
        "preset": args.preset,
        "use_patch_edits": not args.legacy_edits,
    }


def parse_renames(pairs: list[str]) -> dict[str, str]:
    """``["OLD=NEW", ...]`` as a mapping; ValueError names a malformed pair."""
    out: dict[str, str] = {}
    for pair in pairs:
        old, sep, new = pair.partition("=")
        if not sep or not old.strip() or not new.strip():
            raise ValueError(f"--rename takes OLD=NEW, got {pair!r}")
        out[old.strip()] = new.strip()
    return out


def parse_names(value: str | None) -> list[str] | None:
    """A comma-separated ``--tools`` value as a list (``None``: every tool)."""
    if value is None:
        return None
    return [n.strip() for n in value.split(",") if n.strip()]


def _print(data: Any) -> None:
    print(json.dumps(data, indent=2, ensure_ascii=False))


def run_tools(args: argparse.Namespace) -> int:
    """Print the schemas; exit 2 for a bad selection."""
    from patchwright.model import PatchwrightError
    from patchwright.tools import select_specs, tool_definitions

    try:
        options = toolbox_options(args)
        specs = select_specs(
            options["tools"], options["rename"], preset=options["preset"],
            use_patch_edits=options["use_patch_edits"],
        )  # fmt: skip
        if args.stats:
            print(preset_stats(args.preset))
            return 0
        definitions = tool_definitions(
            specs, args.format, strict=args.strict, cache_control=args.cache_control
        )
    except (PatchwrightError, ValueError) as exc:
        print(f"patchwright tools: {exc}", file=sys.stderr)
        return 2
    _print(definitions)
    return 0


def preset_stats(chosen: str | None = None) -> str:
    """A table of every preset: tools, characters of its MCP ``tools/list`` JSON and
    estimated tokens; ``chosen`` is marked."""
    from patchwright.tools import DEFAULT_PRESET, PRESETS, select_specs, tool_definitions
    from patchwright.writing.guard import estimate_tokens

    rows = ["preset       tools  characters  ~tokens  tools listed"]
    for name in PRESETS:
        specs = select_specs(preset=name)
        listing = json.dumps({"tools": tool_definitions(specs, "mcp")}, ensure_ascii=False)
        mark = "*" if name == (chosen or DEFAULT_PRESET) else " "
        names = ", ".join(s.name for s in specs)
        rows.append(
            f"{mark}{name:<11} {len(specs):>5}  {len(listing):>10}  {estimate_tokens(listing):>7}"
            f"  {names}"
        )
    return "\n".join(rows)


def _read_arguments(value: str, limit: int) -> str:
    from patchwright.adapters.limits import read_limited, too_large

    what = "The arguments"
    if value == "-":
        return read_limited(sys.stdin.buffer, limit, what, "--max-args-mb").decode("utf-8")
    if len(value) > limit:
        raise too_large(what, limit, "--max-args-mb")
    return value


def run_call(args: argparse.Namespace) -> int:
    """Run one tool and print its result as JSON."""
    from patchwright.model import PatchwrightError, ToolResult
    from patchwright.tools import Toolbox, load_session, parse_arguments, save_session
    from patchwright.tools import session_path as where
    from patchwright.workspace import Workspace

    try:
        arguments = parse_arguments(_read_arguments(args.arguments, int(args.max_args_mb * 2**20)))
        workspace = Workspace(args.root, mode=args.access, encoding=args.encoding)
        path = where(workspace.state_folder, args.session)
        session = load_session(path)
        toolbox = Toolbox(
            workspace, session=session, syntax_policy=args.syntax, **toolbox_options(args)
        )
        toolbox.spec(args.tool)
    except (PatchwrightError, ValueError, RecursionError) as exc:
        error = exc if isinstance(exc, PatchwrightError) else _usage_error(_why(exc))
        _print(ToolResult.failure(error).to_dict())
        return 2
    result = toolbox.call(args.tool, arguments)
    try:
        save_session(session, path)
    except PatchwrightError as exc:
        result.warnings.append(exc.message)
    _print(result.to_dict())
    return 0 if result.ok else 1


def _why(exc: Exception) -> str:
    if isinstance(exc, RecursionError):
        return "The arguments are nested too deeply to parse; send a flat JSON object."
    return str(exc)


def _usage_error(message: str) -> PatchwrightError:
    from patchwright.model import ErrorCode, PatchwrightError

    return PatchwrightError(ErrorCode.INVALID_REQUEST, message, "See patchwright call --help.")
