"""Text views of history records (what ``get_patch_change`` tells a model)."""

from __future__ import annotations

from typing import Any


def _lines(a: int | None, b: int | None) -> str:
    if a is None or b is None:
        return "?"
    if b < a:
        return f"insertion before line {a}"
    return f"line {a}" if a == b else f"lines {a}-{b}"


def _keyed(kind: str, item: dict[str, Any]) -> str:
    key = f" (key {item['key']})" if item.get("key") else ""
    return f"{kind} {item['id']}{key}"


def _status(batch: dict[str, Any]) -> str:
    if batch.get("reverted_by"):
        return f"undone by batch {batch['reverted_by']}"
    if batch.get("reverts"):
        return f"this batch undoes batch {batch['reverts']}"
    return "in effect (not undone)"


def _change_line(change: dict[str, Any]) -> str:
    why = f": {change['description']}" if change.get("description") else ""
    start, end = change.get("new_start"), change.get("new_end")
    now = (
        "removed"
        if start is not None and end is not None and end < start
        else (f"now {_lines(start, end)}")
    )
    return (
        f"{_keyed('change', change)} {change.get('op', '')} "
        f"{_lines(change.get('old_start'), change.get('old_end'))} -> {now}{why}"
    )


def _file_block(file: dict[str, Any]) -> list[str]:
    label = f": {file['label']}" if file.get("label") else ""
    moved = f" (moved from {file['move_from']})" if file.get("move_from") else ""
    out = [
        f"{_keyed('file patch', file)} {file['action']} {file['path']}{moved}{label}",
        f"  sha256 {file.get('before_sha256') or '(none)'} -> "
        f"{file.get('after_sha256') or '(none)'}",
    ]
    out += [f"  {_change_line(c)}" for c in file.get("changes", [])]
    return out


def describe_item(item: dict[str, Any]) -> str:
    """A batch, file patch or change record (as ``get_patch_change`` returns it) as text."""
    batch = item["batch"]
    made = f"made {item['created_at']} by {batch.get('tool') or 'unknown tool'}"
    label = f" - {batch['label']}" if batch.get("label") else ""
    head_batch = f"{_keyed('batch', batch)}{label}; {made}; {_status(batch)}"
    kind = item["kind"]
    if kind == "change":
        lines = [
            _change_line(item),
            f"in {item.get('path')} (file patch {item['file_id']})",
            head_batch,
        ]
    elif kind == "file":
        lines = [*_file_block(item), head_batch]
    else:
        lines = [head_batch]
        for f in item.get("files", []):
            lines += _file_block(f)
    diff = item.get("diff", "")
    if diff:
        lines += ["diff:", diff.rstrip("\n")]
    return "\n".join(lines)
