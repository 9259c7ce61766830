"""The gateway: MCP (Streamable HTTP) and REST in front of the memory service, with bearer-token tenancy."""
