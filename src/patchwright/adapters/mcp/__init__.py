"""The servers: MCP over stdio and streamable HTTP, and the fast-apply drop-in.

``server`` builds the MCP server of a toolbox, ``stdio`` and ``http`` carry it,
``apply_server`` answers Morph- and Relace-compatible clients behind the same HTTP
guard. Nothing here imports :mod:`patchwright.adapters.cli`.
"""
