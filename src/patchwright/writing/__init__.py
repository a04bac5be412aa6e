"""The write path: the one way from a planned change to the disk.

Every writer (each writing tool, :func:`patchwright.apply_patch_text` and so the
command line's ``patchwright apply``, the documents' save path) computes its new texts in
memory, as :class:`PlannedWrite` values (a write, a creation, a deletion, a move, mode
bits), and hands them here. This package then, for the whole batch:

1. renders each file's diff once (:mod:`.diff`): the result shows it, the history keeps it;
2. runs the one guard on each file (:mod:`.guard`): the syntax policy, the refusal of a
   loosely placed edit that breaks the syntax, the size check and the generated-file
   warning; a refusal here writes nothing;
3. hands the changes, with their change records, to the workspace's all-or-nothing
   commit (:mod:`.stage`), each checked against the SHA256 its planner read;
4. plans again a write that lost the race to another writer (:mod:`.race`): optimistic
   first, then holding the raced files' locks from the read to the commit.

It sits below the API (``apply_patch_text`` is its first user) and the tools, and above
the workspace, the documents and the syntax guard, whose parts it puts together.
"""

from patchwright.writing.guard import (
    check_token_limit,
    estimate_tokens,
    generated_reason,
    generated_warning,
    guard,
)
from patchwright.writing.plan import Block, PlannedWrite, WriteOutcome
from patchwright.writing.race import RACE_TRIES, racing
from patchwright.writing.stage import Recall, Staged, commit, stage, write

__all__ = [
    "RACE_TRIES",
    "Block",
    "PlannedWrite",
    "Recall",
    "Staged",
    "WriteOutcome",
    "check_token_limit",
    "commit",
    "estimate_tokens",
    "generated_reason",
    "generated_warning",
    "guard",
    "racing",
    "stage",
    "write",
]
