// A second, independent MCP client: the official TypeScript SDK over Streamable HTTP.
// Usage: HINDSIGHT_URL=http://127.0.0.1:8765/mcp HINDSIGHT_TOKEN=... node client.mjs <namespace>
// Prints one JSON document: the negotiated protocol, the tool names, the store result and the recall result.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const url = new URL(process.env.HINDSIGHT_URL);
const token = process.env.HINDSIGHT_TOKEN;
const namespace = process.argv[2] ?? "alice/ts";

const transport = new StreamableHTTPClientTransport(url, {
  requestInit: { headers: token ? { Authorization: `Bearer ${token}` } : {} },
});
const client = new Client({ name: "hindsight-ts-test", version: "1.0.0" });

try {
  await client.connect(transport);
  const tools = (await client.listTools()).tools.map((t) => t.name);
  const stored = await client.callTool({
    name: "memory_store",
    arguments: {
      namespace,
      wait: true,
      items: [{ content: "Carol reviews every TypeScript pull request.", kind: "semantic", tags: ["review"] }],
    },
  });
  const recalled = await client.callTool({
    name: "memory_recall",
    arguments: { namespace, query: "who reviews TypeScript pull requests?", top_k: 3 },
  });
  console.log(JSON.stringify({
    protocol: transport.protocolVersion ?? null,
    tools,
    stored: stored.structuredContent,
    storedError: stored.isError ?? false,
    recalled: recalled.structuredContent,
    recalledText: recalled.content.map((c) => c.text),
  }));
} finally {
  await client.close();
}
