"""Adapters: the command line, the servers and the review page (thin layers over tools).

Three rooms, decided from what imports what (an import-linter contract in
``pyproject.toml`` keeps the arrows pointing down):

* :mod:`.cli`: the ``patchwright`` command (``cli/__init__.py`` parses and runs one
  subcommand module: ``apply``, ``tools`` (``call`` and ``tools``), ``mcp``,
  ``apply_server``, ``history``, ``approval``), with the options only its subcommands
  take (``options``: ``--encoding``; ``tools``: the tool selection of ``call``, ``tools``
  and ``mcp``; ``patch_options``: ``-p`` and ``-R``) and its terminal output;
* :mod:`.review`: the review page (``patchwright review``);
* :mod:`.mcp`: the servers the command starts: MCP (``server``, carried by ``stdio`` and
  ``http``) and the fast-apply drop-in (``apply_server``, behind the same HTTP guard).
  Nothing in it imports the command line.

What both the command line and the servers use lives beside the rooms, once:
:mod:`.limits` (the input-size limits and the options that raise them, checked on a
patch file, on ``call``'s arguments and on every MCP message) and :mod:`.diffstat`
(lines of a diff by kind, for the terminal and the review page).
"""
