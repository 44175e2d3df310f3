// MCP call overhead: a no-op tool of a stdio MCP server (test/fixtures/mcp/faulty-server.mjs,
// tool `noop`) called as a task calls it: schema check, the hub, the SDK, the pipe and back.
// Median over CALLS calls after a warm-up. Prints it and writes bench/results/mcp-call.json;
// measureMcpCallOverheadMs() is what bench:compose folds in.
import { loadavg } from 'node:os';
import * as path from 'node:path';
import { createMcpHub } from '../src/compose/index.js';
import type { ToolContext } from '../src/kernel/index.js';
import { median, round, writeResults } from './report.js';

const CALLS = 300;
const WARMUP = 30;
const TARGET_MS = 5;
const SERVER = path.resolve(__dirname, '../test/fixtures/mcp/faulty-server.mjs');

/** The median milliseconds of one no-op stdio MCP tool call, server start excluded. */
export async function measureMcpCallOverheadMs(calls = CALLS): Promise<number> {
  const hub = createMcpHub(
    [{ name: 'bench', source: 'user', file: 'bench', definition: { command: process.execPath, args: [SERVER], env: {} } }],
    {
      mayStart: () => true,
      riskOverrides: () => ({}),
    },
  );
  try {
    await hub.startAll();
    const tool = hub.toolsForTask().find((t) => t.name === 'mcp__bench__noop');
    if (!tool) throw new Error(`the bench server did not start: ${hub.status()[0]?.error}`);
    const ctx = { signal: new AbortController().signal, onProgress: () => {} } as unknown as ToolContext;
    const times: number[] = [];
    for (let i = 0; i < WARMUP + calls; i++) {
      const t = performance.now();
      const input = tool.input.parse({});
      const result = await tool.execute(input, ctx);
      const ms = performance.now() - t;
      if (!result.ok) throw new Error(`the no-op call failed: ${result.content}`);
      if (i >= WARMUP) times.push(ms);
    }
    return round(median(times));
  } finally {
    await hub.dispose();
  }
}

async function main(): Promise<void> {
  const mcpCallOverheadMs = await measureMcpCallOverheadMs();
  const load = loadavg().map((x) => round(x, 2));
  const file = writeResults('mcp-call', { mcpCallOverheadMs, targetMs: TARGET_MS, calls: CALLS, loadavg: load });
  console.log(
    `no-op stdio MCP tool call: ${mcpCallOverheadMs} ms median over ${CALLS} calls (target ≤ ${TARGET_MS} ms) — load average ${load.join(' ')} → ${file}`,
  );
}

if (require.main === module) void main();
