// One edit_file call through the official TypeScript MCP SDK client, for
// tests/adapters/test_mcp_typescript.py:
//
//     node call.mjs URL TIMEOUT_MS RESET
//
// TIMEOUT_MS is the request's time-out; RESET=1 asks for progress and resets the
// time-out on each notification (resetTimeoutOnProgress), RESET=0 asks for neither.
// Each progress notification is written to standard error as it arrives; the outcome
// (the result, or the error the SDK raised) goes to standard output as one JSON line.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url, timeoutMs, reset] = process.argv.slice(2);
const client = new Client({ name: "patchwright-ts-test", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(new URL(url)));
const outcome = { progress: 0 };
const options = { timeout: Number(timeoutMs), maxTotalTimeout: 600000 };
if (reset === "1") {
  options.resetTimeoutOnProgress = true;
  options.onprogress = (note) => {
    outcome.progress += 1;
    process.stderr.write(`progress ${note.progress} ${note.message ?? ""}\n`);
  };
}
try {
  outcome.result = await client.callTool(
    { name: "edit_file", arguments: { path: "app.py", old_string: "x = 1", new_string: "x = 2" } },
    undefined,
    options,
  );
} catch (error) {
  outcome.error = String(error?.message ?? error);
}
process.stdout.write(JSON.stringify(outcome) + "\n");
await client.close();
