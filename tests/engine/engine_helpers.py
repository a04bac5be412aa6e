"""Helpers for engine tests."""

from __future__ import annotations

from patchwright.engine import MatchOptions, apply_edits
from patchwright.model import Composition, Edit, TextFile


def run(
    text: str | bytes,
    *edits: Edit,
    composition: Composition = Composition.SEQUENTIAL,
    mode: str = "fuzzy",
) -> str:
    """Apply edits to ``text`` and return the result as text (bytes decoded)."""
    data = text.encode() if isinstance(text, str) else text
    result = apply_edits(
        TextFile.decode(data),
        list(edits),
        composition=composition,
        options=MatchOptions(mode=mode),  # type: ignore[arg-type]
    )
    return result.file.encode().decode()
