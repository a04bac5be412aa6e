"""Helpers for engine tests."""

from __future__ import annotations

import random

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


def random_file(rng: random.Random, lines: list[str], style: str) -> TextFile:
    """``lines`` with LF, CRLF or ``mixed`` endings, the last one missing half the time."""
    if style == "mixed":
        endings = [rng.choice(["\n", "\r\n"]) for _ in lines]
    else:
        endings = ["\r\n" if style == "crlf" else "\n"] * len(lines)
    if rng.random() < 0.5:
        endings[-1] = ""
    return TextFile(lines, endings)
