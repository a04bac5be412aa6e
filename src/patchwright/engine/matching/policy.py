"""Matching options: which rungs of the ladder may be used, and how fuzzy is fuzzy."""

from __future__ import annotations

from patchwright._lazy import lazy_literals
from patchwright._records import record
from patchwright.model.errors import ErrorCode, PatchwrightError
from patchwright.model.reports import LADDER, Rung

#: ``get_args`` of :data:`Mode` and :data:`Frame`, kept as constants so that no run-time
#: use of the aliases imports ``typing`` (start-up time).
MODES = ("strict", "tolerant", "fuzzy")
FRAMES = ("auto", "shift", "keep")

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal

    Mode = Literal["strict", "tolerant", "fuzzy"]
    Frame = Literal["auto", "shift", "keep"]
else:
    __getattr__ = lazy_literals(__name__, {"Mode": MODES, "Frame": FRAMES}, globals())

#: Every rung of the matching ladder, in the order they are tried.
RUNGS: tuple[Rung, ...] = LADDER

# strict: the text must be there (line endings aside, which are not part of the text a
# model sees); tolerant: whitespace damage, and (each with a warning saying what was
# tolerated, see splice.tolerated) a changed edge line, typographic punctuation,
# "..." elisions and one left-out line; fuzzy: similarity too. Tolerant keeps the
# non-whitespace rungs because the string-replacement tools built on it need them
# (spec 000 asks for trimmed first and last lines); the warnings keep spec 002's
# reader, who expects whitespace only, informed.
_MODE_RUNGS: dict[str, tuple[Rung, ...]] = {
    "strict": (Rung.EXACT, Rung.NEWLINE),
    "tolerant": RUNGS[:-1],
    "fuzzy": RUNGS,
}


@record(frozen=True)
class MatchOptions:
    """How hard the engine may try to find an anchor.

    Attributes:
        mode: ``strict`` (exact text, any line endings), ``tolerant`` (also whitespace
            and indentation; trimmed edges, typographic punctuation, ``...`` elisions and
            a left-out line with a warning) or ``fuzzy`` (also similarity at or above
            ``fuzzy_threshold``, with a warning).
        fuzzy_threshold: minimum similarity for the fuzzy rung, 0.5 to 1.0.
        use_hints: let hunk line numbers settle an ambiguous location when the other
            candidates are clearly farther away.
        frame: for added lines whose old lines matched with an indentation shift and
            whose own evidence is balanced: ``auto`` refuses, ``shift`` shifts them too,
            ``keep`` inserts them as given (a caller decides with other evidence, such
            as which reading parses).
        max_chars: the largest text an edit may make, in characters (``None``: no
            bound). A ``replace_all`` whose copies would grow the text past it is
            refused from their count, before the text is built (a file over the
            workspace's byte limit could not be written anyway).
        explain: build a refusal's diagnosis (the nearest region, its diff, whether the
            edit looks applied). A caller that only asks whether an edit applies to some
            text (a retry replayed on the file's older content, where it usually does
            not) turns it off: the refusal is then one plain sentence, at a fraction of
            the cost.
    """

    mode: Mode = "fuzzy"
    fuzzy_threshold: float = 0.8
    use_hints: bool = True
    frame: Frame = "auto"
    max_chars: int | None = None
    explain: bool = True

    def __post_init__(self) -> None:
        if self.mode not in _MODE_RUNGS:
            raise PatchwrightError(
                ErrorCode.INVALID_REQUEST,
                f"Unknown matching mode {self.mode!r}.",
                "Use one of: strict, tolerant, fuzzy.",
                field="mode",
            )
        if not 0.5 <= self.fuzzy_threshold <= 1.0:
            raise PatchwrightError(
                ErrorCode.INVALID_REQUEST,
                f"fuzzy_threshold must be between 0.5 and 1.0, got {self.fuzzy_threshold}.",
                "Pass a similarity between 0.5 (loose) and 1.0 (exact); 0.8 is the default.",
                field="fuzzy_threshold",
            )

    @property
    def rungs(self) -> tuple[Rung, ...]:
        """The rungs this mode allows, in ladder order."""
        return _MODE_RUNGS[self.mode]

    def allows(self, rung: Rung) -> bool:
        """Whether ``rung`` may be used."""
        return rung in _MODE_RUNGS[self.mode]
