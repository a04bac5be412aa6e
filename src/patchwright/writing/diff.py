"""The diff of one planned file, rendered once: what the result shows and the history keeps."""

from __future__ import annotations

from patchwright.engine import unified_diff
from patchwright.engine.notebook import is_notebook_path
from patchwright.model import TextFile
from patchwright.writing.plan import PlannedWrite


def render_diff(plan: PlannedWrite) -> str:
    """The diff from the file as read to the plan's new text: unified, or per cell for a
    notebook changed in place (:func:`patchwright.engine.notebook.file_diff`), after the
    plan's ``diff_head`` (git's mode lines)."""
    old_path = plan.move_from or plan.path
    a = f"a/{old_path}" if plan.before is not None else "/dev/null"
    b = f"b/{plan.path}" if plan.after is not None else "/dev/null"
    if is_notebook_path(plan.path):  # a notebook's change is shown cell by cell
        from patchwright.engine.notebook import file_diff

        body = file_diff(plan.before, plan.after, a, b, regions=plan.regions)
    else:
        old, new = plan.before or TextFile(), plan.after or TextFile()
        body = unified_diff(old, new, a, b, regions=plan.regions)
    return plan.diff_head + body
