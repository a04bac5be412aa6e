"""The history tools: ``get_patch_change`` (one change by ID) and ``undo``.

Spec 001's introspection and undo. ``tool`` holds the handlers and their specs,
``text`` the description of one history item.
"""
