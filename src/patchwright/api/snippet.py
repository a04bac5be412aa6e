"""Merge a lazy edit snippet into a text, from Python: ``patchwright.merge_snippet``.

    from patchwright import merge_snippet

    new_text = merge_snippet(old_text, snippet, path="app.py")

The snippet is the new version of the file, or of part of it, with markers such as
``# ... existing code ...`` for unchanged runs (grammar:
:mod:`patchwright.engine.replacing.snippet.markers`; rules:
:mod:`patchwright.engine.replacing.snippet.merge`). For the report (which rung placed each
run, which edges were kept) use :func:`patchwright.merge_snippet_file`.
"""

from __future__ import annotations

from patchwright.engine.replacing.snippet import merge_snippet_file
from patchwright.model.text import TextFile

__all__ = ["merge_snippet"]


def merge_snippet(original: str, snippet: str, *, path: str | None = None) -> str:
    """The original text with the snippet merged in, deterministically.

    Line endings, a BOM character and the final newline of ``original`` are kept; new
    lines take its dominant line ending. ``path`` only names the file in messages.

    Raises:
        PatchwrightError: the snippet cannot be merged beyond doubt (a run placed in
            several ways or nowhere, a large stretch that would be deleted); the message
            names the snippet and file lines, shows the candidate result as a diff and
            says what to add to the snippet.
    """
    return merge_snippet_file(TextFile.from_text(original), snippet, path=path).file.text
