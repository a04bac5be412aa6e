"""Where a spec 000 patch's text comes from: ``newText`` or a clipboard, then ``reindent``.

Re-indentation (REQ-PATCH-004) works on the inserted text line by line. The spec says
"remove that prefix from each non-empty line", "add that prefix to each non-empty line"
and "WHEN strip prefix is not present on a non-empty line THE SYSTEM SHALL return error
indicating strip precondition failed". An empty line is one with no characters before
its line break; a line of spaces or tabs has characters, so it is non-empty:

* ``strip``: the prefix is removed from every non-empty line, whitespace-only lines
  included; a non-empty line that does not start with it fails the precondition
  (``reindent_failed``, naming the line). Empty lines are left alone;
* ``add``: the prefix is put before every non-empty line, whitespace-only lines
  included; empty lines stay empty, so no trailing whitespace is created from them.

Strip runs before add, so ``{"strip": "    ", "add": "\\t"}`` turns four-space
indentation into a tab.
"""

from __future__ import annotations

from collections.abc import Mapping

from patchwright.model import ErrorCode, PatchwrightError
from patchwright.model.text import split_lines
from patchwright.tools.patch.models import Reindent


def reindent(text: str, spec: Reindent | None, field: str) -> str:
    """``text`` with ``spec`` applied (see the module docstring).

    Raises:
        PatchwrightError: ``reindent_failed`` when a non-empty line lacks the strip prefix.
    """
    if spec is None or (not spec.strip and not spec.add):
        return text
    lines = [a + b for a, b in zip(*split_lines(text))]
    out: list[str] = []
    for number, line in enumerate(lines, start=1):
        body = line.rstrip("\r\n")
        ending = line[len(body) :]
        # REQ-PATCH-004 says "non-empty line": only a line with no characters is exempt;
        # a whitespace-only line is checked and re-indented like any other.
        empty = not body
        if spec.strip and not empty:
            if body.startswith(spec.strip):
                body = body[len(spec.strip) :]
            else:
                raise PatchwrightError(
                    ErrorCode.REINDENT_FAILED,
                    f"reindent strip precondition failed: line {number} of the inserted text "
                    f"does not start with the strip prefix {spec.strip!r} (it is {body!r}). "
                    "No change was made.",
                    "Use a strip prefix every non-empty line starts with (the smallest "
                    "indentation of the text; lines of only spaces or tabs count too, so "
                    "make them empty or indent them fully), or leave strip out.",
                    field=f"{field}.reindent.strip",
                    line=number,
                )
        if spec.add and not empty:
            body = spec.add + body
        out.append(body + ending)
    return "".join(out)


def missing_clipboard(name: str, clipboards: Mapping[str, str], field: str) -> PatchwrightError:
    """The error for a clipboard that does not exist."""
    known = ", ".join(repr(n) for n in sorted(clipboards)) or "none yet"
    return PatchwrightError(
        ErrorCode.CLIPBOARD_MISSING,
        f"Clipboard {name!r} does not exist (clipboards in this session: {known}). "
        "No change was made.",
        "Fill it first with toClipboard on a replace operation (in this call or an earlier "
        "one), or send the text in newText.",
        field=field,
        details={"clipboard": name, "clipboards": sorted(clipboards)},
    )
