"""Adapters: the CLI, the MCP server and the function-calling schemas (thin layers)."""
