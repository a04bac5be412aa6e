"""The syntax policies a caller may name, and the refusal of any other name.

One table for every layer: the syntax guard (:func:`patchwright.syntax.check_edit`), the
write path's guard (:mod:`patchwright.writing.guard`), the toolbox and the command line
read it here.
"""

from __future__ import annotations

from patchwright.model import ErrorCode, PatchwrightError

#: ``get_args(SyntaxPolicy)``: ``off`` (no check), ``warn`` (report new errors) and
#: ``reject`` (refuse the edit). Kept as a constant so that no run-time use of the alias
#: imports ``typing`` (start-up time).
POLICIES = ("off", "warn", "reject")


def check_policy(policy: str, field: str) -> None:
    """Refuse a policy name that is not one of :data:`POLICIES`.

    Args:
        policy: the name the caller gave.
        field: the request field or argument that carried it, for the error.

    Raises:
        PatchwrightError: ``invalid_request`` naming ``field`` and the policies.
    """
    if policy not in POLICIES:
        raise PatchwrightError(
            ErrorCode.INVALID_REQUEST,
            f"Unknown syntax-check policy {policy!r}.",
            f"Use one of: {', '.join(POLICIES)}.",
            field=field,
        )
