"""``patchwright review``: a local web page to see, undo and approve what agents change.

Modules:

* ``cli``: the command (binds loopback, prints the URL with its token, serves);
* ``app``: the starlette application and its token guard;
* ``data``: batch and proposal summaries, filters, diffs, read through the workspace;
* ``render``: unified diffs as highlighted HTML (pygments), unified or side by side;
* ``static/``: the page itself, plain HTML, CSS and JavaScript shipped as package data.
"""
