// How a host builds a runtime: the provider its settings name and the runtime around it.
export { composeRuntime, composeRegistry, composePolicy } from './runtime.js';
export { createModelProvider, modelOf } from './provider.js';
export { workspaceCheckpoints } from './checkpoints.js';
export type { ComposeInput } from './runtime.js';
export { describeSkillProblem, type SkillProblem } from './skills/load-skills.js';
export { createMcpHub, loadMcpConfigs, mcpFiles, type McpHubInput } from './mcp.js';
export {
  EXIT_CODES,
  lastAnswer,
  lastTest,
  RUN_RESULT_VERSION,
  RunResultSchema,
  refusals,
  runOutcome,
  unstartedResult,
  taskTurns,
  type RunEnding,
  type RunResult,
} from './run-result.js';
export { taskChanges, type TaskChanges } from './task-changes.js';
export { allBudgets, spendOf, taskBudget, type Budget, type BudgetCaps } from './budget.js';
export { a2aFiles, loadA2aConfigs } from './protocols.js';
export { secretDetector } from './secrets/detector.js';
/** The environment for a helper process (git, a probe): without Keel's keys and withheld credentials. */
export { withoutCredentials } from '../node/environment-block.js';
export { sweepStaleTemps } from './temp-sweep.js';
export { runtimeProcesses } from './background.js';
