// Temporary workspaces on disk, tool contexts and proposed intents for the tool tests.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { ToolContext, ToolDefinition, ToolIntent, ToolResult, Workspace } from '../../../src/kernel/index.js';
import { createNodeWorkspace, type NodeWorkspaceOptions } from '../../../src/node/node-workspace.js';
import { allTools, COMMAND_SANDBOX_RULES } from '../../../src/tools/index.js';
import { readFileTool } from '../../../src/tools/read-file.js';
import { searchByWalking } from '../../../src/tools/search/walking-search.js';

export interface TempWorkspace {
  dir: string;
  ws: Workspace;
  cleanup(): Promise<void>;
}

export async function tempWorkspace(
  files: Record<string, string | Uint8Array> = {},
  opts: NodeWorkspaceOptions = {},
): Promise<TempWorkspace> {
  const dir = await mkdtemp(path.join(tmpdir(), 'keel-tools-'));
  for (const [rel, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await writeFile(path.join(dir, rel), content);
  }
  const ws = await createNodeWorkspace(dir, { fallbackSearch: searchByWalking, sandbox: { rules: COMMAND_SANDBOX_RULES }, ...opts });
  return { dir: ws.root, ws, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export function context(
  ws: Workspace,
  fileVersions: Record<string, string> = {},
  signal = new AbortController().signal,
): ToolContext & { progress: string[] } {
  const progress: string[] = [];
  return { workspace: ws, signal, fileVersions, onProgress: (c) => progress.push(c), progress };
}

/** Reads the file with read_file, as the agent would, and returns the versions it recorded. */
export async function readVersions(ws: Workspace, file: string): Promise<Record<string, string>> {
  const r: ToolResult = await readFileTool.execute({ path: file }, context(ws));
  if (!r.fileVersions) throw new Error(`read_file gave no version: ${r.content}`);
  return r.fileVersions;
}

/** A registered tool by name (the tests' tools are the real ones). */
export function toolNamed(name: string): ToolDefinition {
  const tool = allTools.find((t) => t.name === name);
  if (!tool) throw new Error(`no tool named ${name}`);
  return tool;
}

/** A call of the named tool as the kernel would propose it, for policy tests. */
export function proposedIntent(name: string, input: Record<string, unknown>): ToolIntent {
  return intentFor(toolNamed(name), input);
}

/** A call of this tool (one a host makes per task, as well as a shared one) as the kernel would propose it. */
export function intentFor(def: ToolDefinition, input: Record<string, unknown>): ToolIntent {
  return {
    id: 'i1',
    tool: def.name,
    input,
    providerRef: 'p1',
    summary: def.summarize(input),
    risk: def.risk,
    paths: def.paths?.(input) ?? [],
    status: 'proposed',
  };
}
