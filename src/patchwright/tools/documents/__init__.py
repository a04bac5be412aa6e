"""The document tools (spec 003): ``build_diff``, ``document_snapshot`` and
``document_edit`` over the versioned in-memory documents of :mod:`patchwright.documents`.
"""
