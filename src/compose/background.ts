// Each composed task's background processes: one table per runtime (so what a task started is
// its own and ends with it), the four process tools and browser_check bound to it. A host lists
// the table in its view and stops it when the task ends — the CLI at the end of the run, the
// editor when the task is closed — through runtimeProcesses.
import type { BackgroundProcesses, ToolDefinition, Workspace } from '../kernel/index.js';
import { createBackgroundProcesses } from '../node/background-processes.js';
import { createBrowserCheckTool, createProcessTools } from '../tools/index.js';

const tables = new WeakMap<object, BackgroundProcesses>();

/** A new table on the workspace and the tools that use it. */
export function backgroundTools(workspace: Workspace): { table: BackgroundProcesses; tools: ToolDefinition[] } {
  const table = createBackgroundProcesses(workspace);
  return { table, tools: [...createProcessTools(table), createBrowserCheckTool(table)] };
}

export function keepProcesses(runtime: object, table: BackgroundProcesses): void {
  tables.set(runtime, table);
}

/** The background processes of a composed runtime; undefined for one composed without a folder. */
export function runtimeProcesses(runtime: object): BackgroundProcesses | undefined {
  return tables.get(runtime);
}
