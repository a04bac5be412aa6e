"""``workspace_write_patch``: line-based patches over several files, one atomic batch.

Spec 001 (its ``read_file`` is in :mod:`patchwright.tools.navigation`, its
``get_patch_change`` and ``undo`` in :mod:`patchwright.tools.history`). ``models`` holds
the request models, ``checks`` the structural checks and per-file plan, ``report`` the
envelope and ``tool`` the handler.
"""
