"""Spec 001: ``read_file``, ``workspace_write_patch`` (line-based multi-file batches) and
the history tools ``get_patch_change`` and ``undo``.

For the batch tool, ``write_patch_models`` holds the request models,
``write_patch_checks`` the structural checks and per-file plan, ``write_patch_report``
the envelope and ``write_patch`` the handler.
"""
