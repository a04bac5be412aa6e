"""Lazy edit snippets merged into the original: the marker reader (:mod:`.markers`),
placement (:mod:`.place`), the merge (:mod:`.merge`), its report (:mod:`.report`) and
refusals (:mod:`.refuse`)."""

from __future__ import annotations

from patchwright.engine.replacing.snippet.merge import MAX_DELETED, merge_snippet_file
from patchwright.engine.replacing.snippet.report import (
    GapReport,
    RunReport,
    SnippetMerge,
    SnippetReport,
)

__all__ = [
    "MAX_DELETED",
    "GapReport",
    "RunReport",
    "SnippetMerge",
    "SnippetReport",
    "merge_snippet_file",
]
