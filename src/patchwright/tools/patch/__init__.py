"""Spec 000: ``patch`` (replace / append_eof / prepend_bof / overwrite, clipboards).

``models`` holds the request models, ``text`` the inserted text (clipboards, reindent),
``report`` the answer and ``tool`` the handler and its spec.
"""
