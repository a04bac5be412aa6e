"""``patch``: replace a region, append, prepend or overwrite, with clipboards (spec 000).

``models`` holds the request models, ``text`` the inserted text (clipboards, reindent),
``report`` the answer and ``tool`` the handler and its spec.
"""
