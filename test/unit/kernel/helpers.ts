// Small fixtures for kernel tests: two tools over an in-memory workspace, and a runner.
import { z } from 'zod';
import {
  Registry,
  Runtime,
  type RuntimeOptions,
  type RuntimeOutput,
  type ToolDefinition,
  type Workspace,
} from '../../../src/kernel/index.js';
import { ScriptedProvider, type Script } from '../../../src/providers/scripted.js';

export function memoryWorkspace(files: Record<string, string> = {}): Workspace & { files: Record<string, string> } {
  const notImplemented = () => Promise.reject(new Error('not used in kernel tests'));
  return {
    files,
    root: '/ws',
    resolve: async (p) => p,
    readFile: async (p) => new TextEncoder().encode(files[p] ?? ''),
    writeFile: async (p, d) => void (files[p] = new TextDecoder().decode(d)),
    stat: async (p) => (p in files ? { type: 'file', size: files[p]!.length, mtimeMs: 0 } : undefined),
    readDir: notImplemented,
    search: notImplemented,
    runProcess: notImplemented,
  };
}

export const executions: string[] = [];

export const readNote: ToolDefinition<{ path: string }> = {
  name: 'read_note',
  kind: 'read',
  description: 'Reads a note.',
  input: z.object({ path: z.string() }),
  risk: 'read',
  readOnly: true,
  concurrencySafe: true,
  outputBudgetTokens: 1000,
  summarize: (i) => i.path,
  async execute(input, ctx) {
    executions.push(`read_note ${input.path}`);
    const text = new TextDecoder().decode(await ctx.workspace.readFile(input.path));
    return { ok: true, content: text };
  },
};

export const writeNote: ToolDefinition<{ path: string; text: string }> = {
  name: 'write_note',
  kind: 'other',
  description: 'Writes a note.',
  input: z.object({ path: z.string(), text: z.string() }),
  risk: 'write',
  readOnly: false,
  concurrencySafe: false,
  outputBudgetTokens: 1000,
  isVisible: (ctx) => ctx.trusted,
  summarize: (i) => i.path,
  async execute(input, ctx) {
    executions.push(`write_note ${input.path}`);
    await ctx.workspace.writeFile(input.path, new TextEncoder().encode(input.text));
    return { ok: true, content: `wrote ${input.path}`, fileVersions: { [input.path]: 'v1' } };
  },
};

export function makeRuntime(script: Script, extra: Partial<RuntimeOptions> = {}) {
  executions.length = 0;
  const provider = new ScriptedProvider(script);
  const registry = new Registry().addTool(readNote).addTool(writeNote);
  let n = 0;
  let t = 1_000;
  const workspace = memoryWorkspace({ 'a.txt': 'alpha' });
  const runtime = new Runtime({ provider, registry, workspace, newId: () => `id${++n}`, now: () => ++t, ...extra });
  return { runtime, provider, registry, workspace };
}

/** Drains a run, answering approvals with `onApproval` (which may approve, reject or do nothing). */
export async function drain(
  outputs: AsyncIterable<RuntimeOutput>,
  onApproval: (intentId: string) => void = () => undefined,
): Promise<RuntimeOutput[]> {
  const seen: RuntimeOutput[] = [];
  for await (const out of outputs) {
    seen.push(out);
    if (out.kind === 'event' && out.event.type === 'approval_requested') onApproval(out.event.intentId);
  }
  return seen;
}

export function types(outputs: RuntimeOutput[]): string[] {
  return outputs.filter((o) => o.kind === 'event').map((o) => (o as { event: { type: string } }).event.type);
}
