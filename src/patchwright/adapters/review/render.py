"""Unified diffs as HTML tables, highlighted with pygments, unified or side by side.

A file's diff is split into rows (``header``, ``hunk``, ``context``, ``del``, ``add``,
``note``) with old and new line numbers. Each hunk's old side (context and removed
lines) and new side (context and added lines) are highlighted as one text each, with
the lexer pygments picks for the file name, so a string or comment spanning lines keeps
its colour; pygments' HTML formatter closes its spans at every line end, so the output
splits back into lines. Diffs longer than :data:`HIGHLIGHT_MAX_LINES` are escaped
without colour (highlighting is the slow part).
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from patchwright._records import record
from patchwright.adapters.diffstat import LineKind, classify, count, hunk_start
from patchwright.model.quoting import quote_name, visible

#: Diffs with more lines than this are shown without syntax colours.
HIGHLIGHT_MAX_LINES = 4000
#: The CSS class the pygments styles are scoped to.
HIGHLIGHT_CLASS = "hl"


@record
class Row:
    """One line of a diff as shown: its kind, line numbers and HTML text."""

    kind: LineKind
    old: int | None
    new: int | None
    html: str


def parse_rows(diff: str) -> list[Row]:
    """The rows of one file's unified diff (texts still plain, escaped later)."""
    rows: list[Row] = []
    old = new = 0
    for kind, line in classify(diff):
        # shown as written, control characters visible: a form feed is "\f", never a break
        line = visible(line)
        if kind == "hunk":
            old, new = hunk_start(line)
            rows.append(Row(kind, None, None, line))
        elif kind in ("header", "note"):
            rows.append(Row(kind, None, None, line))
        elif kind == "del":
            rows.append(Row(kind, old, None, line[1:]))
            old += 1
        elif kind == "add":
            rows.append(Row(kind, None, new, line[1:]))
            new += 1
        else:
            rows.append(Row(kind, old, new, line[1:]))
            old, new = old + 1, new + 1
    return rows


def highlight_rows(rows: list[Row], path: str) -> None:
    """Replace each row's plain text with HTML (highlighted when not too long)."""
    code_rows = [r for r in rows if r.kind in ("context", "del", "add")]
    if len(rows) > HIGHLIGHT_MAX_LINES or not code_rows:
        for row in rows:
            row.html = html.escape(row.html)
        return
    lexer = _lexer(path)
    for row in rows:
        if row.kind not in ("context", "del", "add"):
            row.html = html.escape(row.html)
    for hunk in _hunks(rows):
        old_side = [r for r in hunk if r.kind in ("context", "del")]
        new_side = [r for r in hunk if r.kind in ("context", "add")]
        old_html = _highlight_lines([r.html for r in old_side], lexer)
        new_html = _highlight_lines([r.html for r in new_side], lexer)
        # context rows belong to both sides: they take the new side's colours
        for row, text in zip(old_side, old_html, strict=True):
            if row.kind == "del":
                row.html = text
        for row, text in zip(new_side, new_html, strict=True):
            row.html = text


def _hunks(rows: list[Row]) -> Iterable[list[Row]]:
    current: list[Row] = []
    for row in rows:
        if row.kind in ("context", "del", "add"):
            current.append(row)
        elif current:
            yield current
            current = []
    if current:
        yield current


@lru_cache(maxsize=256)
def _lexer(path: str) -> Any:
    from pygments.lexers import TextLexer, get_lexer_for_filename
    from pygments.util import ClassNotFound

    try:
        return get_lexer_for_filename(path, stripnl=False, ensurenl=False)
    except ClassNotFound:
        return TextLexer(stripnl=False, ensurenl=False)


def _highlight_lines(lines: list[str], lexer: Any) -> list[str]:
    from pygments import highlight
    from pygments.formatters import HtmlFormatter

    if not lines:
        return []
    text = "\n".join(lines) + "\n"
    out: list[str] = highlight(text, lexer, HtmlFormatter(nowrap=True)).split("\n")
    if len(out) < len(lines):  # never expected; keep the rows readable regardless
        return [html.escape(line) for line in lines]
    return out[: len(lines)]


def style_css() -> str:
    """The pygments colours, scoped to ``.hl``."""
    from pygments.formatters import HtmlFormatter

    formatter: Any = HtmlFormatter(style="default")  # get_style_defs is untyped in the stubs
    css: str = formatter.get_style_defs(f".{HIGHLIGHT_CLASS}")
    return css


def _number(value: int | None) -> str:
    return "" if value is None else str(value)


def unified_html(rows: list[Row]) -> str:
    """A table: old number, new number, the line."""
    out = ['<table class="diff unified hl">']
    for r in rows:
        sign = {"del": "-", "add": "+", "context": " "}.get(r.kind, "")
        out.append(
            f'<tr class="{r.kind}"><td class="num">{_number(r.old)}</td>'
            f'<td class="num">{_number(r.new)}</td>'
            f'<td class="code"><span class="sign">{sign}</span>{r.html}</td></tr>'
        )
    out.append("</table>")
    return "".join(out)


def split_html(rows: list[Row]) -> str:
    """A table with the old side left and the new side right, changes paired up."""
    out = ['<table class="diff split hl">']
    pending_del: list[Row] = []
    pending_add: list[Row] = []

    def flush() -> None:
        for i in range(max(len(pending_del), len(pending_add))):
            left = pending_del[i] if i < len(pending_del) else None
            right = pending_add[i] if i < len(pending_add) else None
            out.append(
                "<tr>"
                + _cell(left, "del", left.old if left else None)
                + _cell(right, "add", right.new if right else None)
                + "</tr>"
            )
        pending_del.clear()
        pending_add.clear()

    for r in rows:
        if r.kind == "del":
            if pending_add:
                flush()
            pending_del.append(r)
        elif r.kind == "add":
            pending_add.append(r)
        else:
            flush()
            if r.kind == "context":
                out.append(
                    f'<tr class="context">{_cell(r, "context", r.old)}'
                    f"{_cell(r, 'context', r.new)}</tr>"
                )
            else:
                out.append(f'<tr class="{r.kind}"><td colspan="4">{r.html}</td></tr>')
    flush()
    out.append("</table>")
    return "".join(out)


def _cell(row: Row | None, kind: str, number: int | None) -> str:
    if row is None:
        return '<td class="num empty"></td><td class="code empty"></td>'
    return f'<td class="num {kind}">{_number(number)}</td><td class="code {kind}">{row.html}</td>'


def files_html(files: list[dict[str, Any]], view: str) -> str:
    """Every file's diff (``path``, ``action``, ``diff`` keys) as HTML sections."""
    parts = []
    for f in files:
        rows = parse_rows(f.get("diff") or "")
        highlight_rows(rows, f["path"])
        added, removed = count(f.get("diff") or "")
        table = split_html(rows) if view == "split" else unified_html(rows)
        moved = f" (from {html.escape(quote_name(f['move_from']))})" if f.get("move_from") else ""
        body = table if rows else '<p class="nodiff">No text diff.</p>'
        parts.append(
            f'<section class="file"><h3><span class="action">{html.escape(f["action"])}</span> '
            f'<span class="path">{html.escape(quote_name(f["path"]))}</span>{moved} '
            f'<span class="added">+{added}</span> <span class="removed">-{removed}</span></h3>'
            f"{body}</section>"
        )
    return "".join(parts)
