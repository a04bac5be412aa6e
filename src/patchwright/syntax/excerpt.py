"""The numbered lines around an error, as shown to the model."""

from __future__ import annotations

from collections.abc import Callable, Sequence

# A minified file can have one line of a megabyte: show a window around the column.
MAX_WIDTH = 160
_LEAD = 60


def excerpt(
    lines: Sequence[str],
    line: int,
    column: int,
    *,
    context: int = 2,
    label: Callable[[int], str] = str,
) -> str:
    """Lines ``line - context`` to ``line + context``, the error line marked with ``>``.

    A caret line under the error line points at ``column``; tabs before the column are
    kept in the caret line so it stays aligned however the host renders tabs. ``label``
    gives the gutter of each 1-based line (its number in ``lines`` by default; a refusal
    numbers them by the file as it is, see :func:`.check.check_edit`).
    """
    first = max(1, line - context)
    last = min(len(lines), line + context)
    gutter = {number: label(number) for number in range(first, last + 1)}
    width = max(map(len, gutter.values()), default=1)
    out: list[str] = []
    for number in range(first, last + 1):
        text = lines[number - 1].rstrip("\r\n")
        if number != line:
            out.append(f"  {gutter[number]:>{width}} | {_cut(text)}".rstrip())
            continue
        shown, caret = _window(text, column)
        out.append(f"> {gutter[number]:>{width}} | {shown}".rstrip())
        pad = "".join("\t" if char == "\t" else " " for char in shown[: caret - 1])
        out.append(f"  {' ' * width} | {pad}^")
    return "\n".join(out)


def _cut(text: str) -> str:
    return text if len(text) <= MAX_WIDTH else text[: MAX_WIDTH - 1] + "…"


def _window(text: str, column: int) -> tuple[str, int]:
    """The part of ``text`` to show and the column of the error within it."""
    column = max(1, min(column, len(text) + 1))
    if len(text) <= MAX_WIDTH:
        return text, column
    start = max(0, min(column - 1 - _LEAD, len(text) - MAX_WIDTH))
    shown = text[start : start + MAX_WIDTH]
    if start + MAX_WIDTH < len(text):
        shown += "…"
    if start > 0:
        return "…" + shown, column - start + 1
    return shown, column
