// Keel's tools, declared once each. src/compose registers them for every host.
import type { CommandShell, ToolDefinition } from '../kernel/index.js';
import { editFileTool } from './edit-file.js';
import { getDiagnosticsTool } from './get-diagnostics.js';
import { listFilesTool } from './list-files.js';
import { readFileTool } from './read-file.js';
import { createRunCommandTool, runCommandTool } from './run-command.js';
import { runTestsTool } from './run-tests/run-tests.js';
import { searchFilesTool } from './search-files.js';
import { writeFileTool } from './write-file.js';
import { forgetTool } from './memory/forget.js';
import { recallTool } from './memory/recall.js';
import { rememberTool } from './memory/remember.js';
import { delegateTool } from './delegate/delegate.js';
import { delegatePlanTool } from './delegate/delegate-plan.js';
import { findSymbolTool } from './code/find-symbol.js';
import { goToDefinitionTool } from './code/go-to-definition.js';
import { findReferencesTool } from './code/find-references.js';
import { documentOutlineTool } from './code/document-outline.js';
import { typeInfoTool } from './code/type-info.js';
import { webFetchTool } from './web/web-fetch.js';
import { todoReadTool, todoWriteTool } from './todos/todo-write.js';

export const allTools: readonly ToolDefinition[] = [
  readFileTool,
  listFilesTool,
  searchFilesTool,
  editFileTool,
  writeFileTool,
  runTestsTool,
  runCommandTool,
  getDiagnosticsTool,
  // Offered only when the workspace answers code-intelligence questions (Workspace.codeIntel).
  findSymbolTool,
  goToDefinitionTool,
  findReferencesTool,
  documentOutlineTool,
  typeInfoTool,
  // Offered only when the host can fetch (Workspace.web); risk network: it asks.
  webFetchTool,
  // Offered only when the host configured a memory store (RuntimeOptions.memory).
  rememberTool,
  recallTool,
  forgetTool,
  // Sub-agents: child frames under the same policy (see src/kernel/frames.ts).
  delegateTool,
  delegatePlanTool,
  // The task's to-do list: Keel state only (the log), so it runs unasked in every mode.
  todoWriteTool,
  todoReadTool,
];

/** Every tool, with run_command described for the shell the workspace runs commands with. */
export function toolsFor(shell: CommandShell | undefined): ToolDefinition[] {
  return allTools.map((t) => (t.name === runCommandTool.name ? createRunCommandTool(shell) : t));
}

export { createPolicy } from './policy/create-policy.js';
export { classifyCommand } from './policy/classify-command.js';
export { refusal as memoryTextRefusal } from './memory/remember.js';
export { memoryStalePaths } from './memory/recall.js';
export { COMMAND_ENV } from './policy/command-env.js';
export { COMMAND_SANDBOX_RULES } from './policy/protected-paths.js';
export { commandWords } from './policy/hook-named-files.js';
export { searchByWalking } from './search/walking-search.js';
export { ignorePredicate } from './ignore/predicate.js';
export { lineCounts, type LineCounts } from './text/line-counts.js';
export { unifiedDiff } from './text/unified-diff.js';
export { isBinary } from './text/encoding.js';
export { createProcessTools, describeProcess } from './processes/process-tools.js';
export { createBrowserCheckTool } from './browser/browser-check.js';
