"""Confirm in one call: a refusal that has candidates, and the token that applies one.

When an edit's old text stands at several places, the refusal lists each place (its line
and a short diff of what the edit would do there) instead of only sending the model back
to re-read the file. Where the host exposes a tool that takes ``{"confirm": TOKEN}``
(``edit_file``, ``apply_patch``), each candidate carries a one-use token: calling either
tool with that token alone applies exactly that candidate, provided the file is still
byte for byte what it was at the refusal. A token belongs to the session that got it,
to the file's SHA256 at the refusal, expires after :data:`TOKEN_TTL` seconds, and is
accepted once. Dialect presets, whose tools take no extra field, get for each place an
``old_string`` that is unique there instead.

Refusals carry the candidates in ``details["candidates"]`` (``token``, ``line``,
``diff``); the dispatcher puts them in the result's data, and the result's JSON view
(an MCP result's ``structuredContent``) shows them as ``candidates``.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Sequence
from typing import Any

from patchwright._records import record
from patchwright.engine import unified_diff
from patchwright.model import ErrorCode, PatchwrightError, TextFile, ToolResult
from patchwright.tools.context import ToolContext
from patchwright.tools.files import Loaded, load
from patchwright.tools.session import TAG_DIGITS
from patchwright.tools.writing import commit_writes, planned
from patchwright.workspace import ChangeRecord
from patchwright.writing import racing

__all__ = [
    "TOKEN_TTL",
    "apply_confirmed",
    "offer_candidates",
    "offer_near_miss",
    "offer_readings",
    "offer_texts",
]

#: Seconds a confirm token stays valid.
TOKEN_TTL = 600.0
#: The most places a refusal lists, and the most tokens a session keeps.
_SHOWN = 5
_KEPT = 64
# random bytes of a token after its session's tag (12 hex digits in all)
_RANDOM_BYTES = 3
#: The tools that take ``{"confirm": TOKEN}``.
CONFIRMING = ("edit_file", "apply_patch")


@record(frozen=True)
class _Pending:
    """What a token applies: ``text[start:end]`` of ``path`` replaced by ``new``, while
    the file's bytes hash to ``sha256``."""

    path: str
    sha256: str
    start: int
    end: int
    new: str
    line: int
    expires: float

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view (a command-line session keeps its tokens in its file)."""
        return {"path": self.path, "sha256": self.sha256, "start": self.start,
                "end": self.end, "new": self.new, "line": self.line,
                "expires": self.expires}  # fmt: skip

    @classmethod
    def from_dict(cls, data: Any) -> _Pending | None:
        """Rebuild a token's candidate from :meth:`to_dict` (``None``: not one)."""
        try:
            return cls(str(data["path"]), str(data["sha256"]), int(data["start"]),
                       int(data["end"]), str(data["new"]), int(data["line"]),
                       float(data["expires"]))  # fmt: skip
        except (KeyError, TypeError, ValueError):
            return None


def clock() -> float:
    """Now, for tokens' expiry: the wall clock, since a command-line session's tokens
    outlive the process that handed them out."""
    return time.time()


def _confirmer(ctx: ToolContext) -> str | None:
    """The exposed tool that takes a confirm token, if any."""
    if ctx.exposed is None:
        return ctx.tool if ctx.tool in CONFIRMING else None
    if ctx.tool in CONFIRMING and ctx.tool in ctx.exposed:
        return ctx.name_of(ctx.tool)
    return ctx.first_exposed(*CONFIRMING)


def offer_candidates(
    ctx: ToolContext, loaded: Loaded, old: str, new: str, err: PatchwrightError, field: str
) -> PatchwrightError:
    """``err`` (an ambiguous refusal of ``old`` -> ``new``) with each place ``old`` stands
    at as a candidate: in the message, and in ``details["candidates"]``."""
    if loaded.state is None or not old:
        return err
    text = loaded.current.text
    spans: list[tuple[int, int]] = []
    at = text.find(old)
    while at >= 0:
        spans.append((at, at + len(old)))
        at = text.find(old, at + len(old))
    if len(spans) < 2:
        return err
    changes = [(start, stop, new) for start, stop in spans]
    return _with_candidates(ctx, loaded, changes, err, field, f"{len(spans)} places",
                            "make the old text unique")  # fmt: skip


def offer_near_miss(
    ctx: ToolContext,
    loaded: Loaded,
    old: str,
    new: str,
    err: PatchwrightError,
    field: str,
    floor: float,
) -> PatchwrightError:
    """``err`` (a ``not_found`` refusal of ``old`` -> ``new``) with its closest region as
    a candidate when that region is at least ``floor`` similar: the edit would replace
    those whole lines (their last line's ending too when ``old`` ends with one)."""
    closest = err.details.get("closest")
    if loaded.text is None or not isinstance(closest, dict):
        return err
    similarity = closest.get("similarity")
    first, last = closest.get("start"), closest.get("end")
    if not isinstance(similarity, float) or similarity < floor:
        return err
    if not isinstance(first, int) or not isinstance(last, int) or not 1 <= first <= last:
        return err
    file = loaded.text
    if last > len(file.lines):
        return err
    start = sum(len(line) + len(end) for line, end in zip(file.lines[: first - 1],
                                                          file.endings[: first - 1]))  # fmt: skip
    stop = start + sum(
        len(line) + len(end) for line, end in zip(file.lines[first - 1 : last],
                                                  file.endings[first - 1 : last])
    )  # fmt: skip
    if not old.endswith(("\n", "\r")):
        stop -= len(file.endings[last - 1])
    near = f"a near miss, {similarity:.0%} similar"
    return _with_candidates(ctx, loaded, [(start, stop, new)], err, field, near,
                            "copy the file's lines as the old text")  # fmt: skip


def offer_readings(
    ctx: ToolContext,
    loaded: Loaded,
    readings: Sequence[tuple[str, TextFile]],
    err: PatchwrightError,
    field: str,
) -> PatchwrightError:
    """``err`` (an edit whose added lines' indentation is undecided) with each reading of
    it that can be built (its name, and the new text it gives the file) as a candidate."""
    what = "readings of the new lines' indentation: " + ", then ".join(name for name, _ in readings)
    return offer_texts(ctx, loaded, [text for _, text in readings], err, field, what,
                       "indent the new lines the way they must appear")  # fmt: skip


def offer_texts(
    ctx: ToolContext,
    loaded: Loaded,
    texts: Sequence[TextFile],
    err: PatchwrightError,
    field: str,
    what: str,
    otherwise: str,
    *,
    diff_above: bool = False,
) -> PatchwrightError:
    """``err`` with each of ``texts`` (a whole new text of the file) as a candidate;
    ``what`` says what they are, ``otherwise`` the other way out the hint names.
    ``diff_above``: the refusal already shows the one candidate's diff, so its row
    names the token without repeating it (the structured candidate keeps it)."""
    if loaded.text is None or not texts:
        return err
    text = loaded.current.text
    changes = [_splice(text, new.text) for new in texts]
    return _with_candidates(ctx, loaded, changes, err, field, what, otherwise,
                            suggest_old=False, diff_above=diff_above)  # fmt: skip


def _splice(old: str, new: str) -> tuple[int, int, str]:
    """``new`` as ``old`` with one range replaced: ``(start, stop, replacement)``."""
    limit = min(len(old), len(new))
    head = 0
    while head < limit and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < limit - head and old[len(old) - 1 - tail] == new[len(new) - 1 - tail]:
        tail += 1
    return head, len(old) - tail, new[head : len(new) - tail]


def _with_candidates(
    ctx: ToolContext,
    loaded: Loaded,
    changes: list[tuple[int, int, str]],
    err: PatchwrightError,
    field: str,
    what: str,
    otherwise: str,
    *,
    suggest_old: bool = True,
    diff_above: bool = False,
) -> PatchwrightError:
    """``err`` with each of ``changes`` (a character range of the file's text and its
    replacement) as a candidate; ``otherwise`` is the other way out the hint names.
    ``diff_above``: the message already shows the candidate's diff, so its row does not
    repeat it."""
    assert loaded.state is not None
    text = loaded.current.text
    tool = _confirmer(ctx)
    now = clock()
    candidates: list[dict[str, Any]] = []
    rows = [f"Candidates ({what}; {min(len(changes), _SHOWN)} shown):"]
    for k, (start, stop, new) in enumerate(changes[:_SHOWN], start=1):
        line = text.count("\n", 0, start) + 1
        after = TextFile.from_text(
            text[:start] + new + text[stop:],
            encoding=loaded.current.encoding,
            bom=loaded.current.bom,
        )
        diff = unified_diff(loaded.current, after, f"a/{loaded.path}", f"b/{loaded.path}",
                            context=1)  # fmt: skip
        shown = (
            "     (the diff shown above)"
            if diff_above
            else "\n".join("     " + row for row in diff.rstrip("\n").splitlines()[2:])
        )
        entry: dict[str, Any] = {"line": line, "diff": diff}
        if tool is not None:
            token = f"c-{ctx.session.own_tag()}{secrets.token_hex(_RANDOM_BYTES)}"
            _keep(ctx, token, _Pending(loaded.path, loaded.state.sha256, start, stop, new,
                                       line, now + TOKEN_TTL))  # fmt: skip
            entry = {"token": token, **entry}
            rows.append(f"  {k}. line {line}, token {token}:\n{shown}")
        elif not suggest_old:
            rows.append(f"  {k}. line {line}:\n{shown}")
        else:
            unique = _unique_old(text, text[start:stop], start)
            entry["old_string"] = unique
            name = field.rsplit(".", 1)[-1]
            where = (
                f"{name} unique there: {unique!r}"
                if unique is not None
                else f"no {name} of up to 6 more lines is unique there"
            )
            rows.append(f"  {k}. line {line} ({where}):\n{shown}")
        candidates.append(entry)
    err.message = f"{err.message}\n" + "\n".join(rows)
    if tool is not None:
        err.hint = (
            f'Call {tool} with {{"confirm": "<token>"}} and nothing else to apply that '
            f"candidate (once, while the file is unchanged), or {otherwise}."
        )
    elif not suggest_old:
        err.hint = f"Send the edit again so that it does what you mean: {otherwise}."
    else:
        err.hint = (
            f"Send {field} again as shown for the place you mean (the {field} unique "
            "there), or replace every place with replace_all."
            if len(changes) > 1
            else f"Send {field} again as the file has it (shown above)."
        )
    err.details = {**err.details, "candidates": candidates}
    return err


def _given_elsewhere(token: str, tag: str) -> bool:
    """Whether ``token`` has the shape of a token given to a session whose tag is not
    ``tag`` (this session's)."""
    body = token[2:] if token.startswith("c-") else ""
    width = TAG_DIGITS + 2 * _RANDOM_BYTES
    if len(body) != width or any(c not in "0123456789abcdef" for c in body):
        return False
    return body[:TAG_DIGITS] != tag


def _keep(ctx: ToolContext, token: str, pending: _Pending) -> None:
    ctx.session.hold_token(token, pending.to_dict(), _KEPT)


def _unique_old(text: str, old: str, start: int) -> str | None:
    """``old`` widened by whole lines around ``start`` until it occurs once in ``text``."""
    line_start = text.rfind("\n", 0, start) + 1
    end = start + len(old)
    for _ in range(6):
        candidate = text[line_start:end]
        if text.count(candidate) == 1:
            return candidate
        if line_start > 0:
            line_start = text.rfind("\n", 0, line_start - 1) + 1
        next_end = text.find("\n", end)
        end = len(text) if next_end < 0 else next_end + 1
    return None


def apply_confirmed(ctx: ToolContext, token: str, field: str = "confirm") -> ToolResult:
    """Apply the candidate ``token`` names.

    Raises:
        PatchwrightError: ``invalid_request`` for a token this session does not hold
            (unknown, used, expired); ``stale`` when the file changed since the refusal.
    """
    pending = _Pending.from_dict(ctx.session.take_token(token))
    if pending is None:
        if token in ctx.session.spent:
            why = "was already used: a token is accepted once."
        elif _given_elsewhere(token, ctx.session.tag):
            why = "was given to another session: a token belongs to the session that got it."
        else:
            why = "is not one this session was given (or it expired)."
        raise PatchwrightError(
            ErrorCode.INVALID_REQUEST,
            f"Confirm token {token!r} {why}",
            "Send the edit again; a refusal with several places gives new tokens.",
            field=field,
        )
    if clock() > pending.expires:
        raise PatchwrightError(
            ErrorCode.INVALID_REQUEST,
            f"Confirm token {token!r} expired ({int(TOKEN_TTL)} seconds after the refusal).",
            "Send the edit again; the refusal gives new tokens.",
            field=field,
            path=pending.path,
        )
    # a file another writer changed between this call's read and its commit: read again,
    # which tells whether the token still says where the edit goes
    return racing(ctx.workspace, lambda: _apply_pending(ctx, pending, token, field))


def _apply_pending(ctx: ToolContext, pending: _Pending, token: str, field: str) -> ToolResult:
    loaded = load(ctx.workspace, pending.path, session=ctx.session)
    if loaded.sha256 != pending.sha256:
        raise PatchwrightError(
            ErrorCode.STALE,
            f"{pending.path} changed since the refusal that gave token {token!r}, so the "
            "token no longer says where the edit goes. No change was made.",
            "Send the edit again on the file as it is now.",
            field=field,
            path=pending.path,
            details={"expected_sha256": pending.sha256, "actual_sha256": loaded.sha256},
        )
    text = loaded.current.text
    after = TextFile.from_text(
        text[: pending.start] + pending.new + text[pending.end :],
        encoding=loaded.current.encoding,
        bom=loaded.current.bom,
    )
    lines = text[pending.start : pending.end].count("\n")
    record_ = ChangeRecord(description=f"confirmed candidate at line {pending.line}",
                           op="replace", old_start=pending.line,
                           old_end=pending.line + lines)  # fmt: skip
    plan = planned(loaded, after, label=f"{ctx.tool} {loaded.path}", changes=[record_])
    outcome = commit_writes(ctx, [plan], label=plan.label)
    message = [f"Applied the confirmed candidate to {loaded.path} (line {pending.line})."]
    message += [f"  Warning: {w}" for w in outcome.warnings]
    data = {"path": loaded.path, "before_sha256": loaded.sha256, "line": pending.line,
            **outcome.data()}  # fmt: skip
    return ToolResult(True, "\n".join(message), diff=outcome.diff, warnings=outcome.warnings,
                      data=data)  # fmt: skip
