"""Deciding the replacement: what replaces the lines the matching room found.

Composition keeping the file's own bytes (``compose``, ``frame``, ``context_side``),
splices (``splice``, ``literal``), the placeholder check (``placeholders``) and lazy
snippets (``snippet``). It may import :mod:`patchwright.engine.matching`, never the
reverse.
"""
