// A stand-in for a tool that changes a file: it asks (risk write), names its path and "writes"
// nothing. Host tests use it to put a call in front of the user.
import { z } from 'zod';
import type { ToolDefinition } from '../../src/kernel/index.js';

export function fakeWriteTool(name = 'write_file'): ToolDefinition<{ path: string }> {
  return {
    name,
    kind: 'other',
    description: 'writes',
    input: z.object({ path: z.string() }),
    risk: 'write',
    readOnly: false,
    concurrencySafe: false,
    outputBudgetTokens: 100,
    summarize: (i) => i.path,
    paths: (i) => [i.path],
    execute: async () => ({ ok: true, content: 'written' }),
  };
}
