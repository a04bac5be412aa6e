"""Function calling with the model vendors' own APIs, over one :class:`~patchwright.tools.Toolbox`.

* :mod:`patchwright.integrations.openai`: tool definitions for the Chat Completions and
  Responses APIs, and handlers that turn a tool call into the message to send back;
* :mod:`patchwright.integrations.anthropic`: tool definitions for the Messages API, and
  a handler that turns a ``tool_use`` block into its ``tool_result`` block.

Both work on plain dicts and on the vendors' SDK objects alike, and import neither SDK.
Nothing here is loaded by ``import patchwright``.
"""
