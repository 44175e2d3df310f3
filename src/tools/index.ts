// Keel's tools, declared once each. Composition roots (CLI, extension) register them all.
import { Registry, type CommandShell, type ToolDefinition } from '../kernel/index.js';
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

export const allTools: readonly ToolDefinition[] = [
  readFileTool,
  listFilesTool,
  searchFilesTool,
  editFileTool,
  writeFileTool,
  runTestsTool,
  runCommandTool,
  getDiagnosticsTool,
  // Offered only when the host configured a memory store (RuntimeOptions.memory).
  rememberTool,
  recallTool,
  forgetTool,
];

/** Every tool, with run_command described for the shell the workspace runs commands with. */
export function toolsFor(shell: CommandShell | undefined): ToolDefinition[] {
  return allTools.map((t) => (t.name === runCommandTool.name ? createRunCommandTool(shell) : t));
}

/** Registers every tool on the given registry (or a new one). */
export function createToolRegistry(registry: Registry = new Registry(), shell?: CommandShell): Registry {
  for (const tool of toolsFor(shell)) registry.addTool(tool);
  return registry;
}

export { readFileTool, listFilesTool, searchFilesTool, editFileTool, writeFileTool, runTestsTool, runCommandTool, getDiagnosticsTool };
export { rememberTool, recallTool, forgetTool };
export { refusal as memoryTextRefusal } from './memory/remember.js';
export { secretInText } from './memory/secret-text.js';
export { planEdit, type EditPlan, type EditBlock } from './edit/plan-edit.js';
export { planWrite, type WritePlan } from './edit/plan-write.js';
export { createPolicy, type PolicyOptions } from './policy/create-policy.js';
export { classifyCommand, type CommandClass, type CommandClassification, type CommandPath } from './policy/classify-command.js';
export { COMMAND_ENV } from './policy/command-env.js';
export { protectedReason } from './policy/protected-paths.js';
export { searchByWalking } from './search/walking-search.js';
export { IgnoreMatcher, parseIgnore } from './ignore/gitignore.js';
export { parseTestOutput } from './run-tests/parse-output.js';
export type { TestReport, TestFailure } from './run-tests/test-report.js';
export type { FileChangeData } from './change-data.js';
