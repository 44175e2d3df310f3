// `keel run …` flags → options, or a usage error that names the flag.
import { parseArgs } from 'node:util';
import type { BudgetCaps } from '../compose/index.js';
import { DEFAULT_MAX_TURNS, SUBAGENT_DEFAULTS, type AgentMode, type Risk, type SandboxMode } from '../kernel/index.js';
import type { CliProviderId, MaxTokensParamChoice, ReasoningSetting, WireApiChoice } from '../providers/index.js';
import { InputError, UsageError } from './cli-errors.js';
import { withConfigFile } from './config-file.js';
import {
  type OutputMode,
  parseBudget,
  parseCloudName,
  parseContextWindow,
  parseCount,
  parseHost,
  parseMaxTokensParam,
  parseMode,
  parseOutput,
  parsePolicyFlags,
  parseProvider,
  parseReasoningFlag,
  parseSandbox,
  parseUrl,
  parseVariableName,
  parseWireApi,
} from './flag-values.js';
import { readProcessStdin, taskText } from './task-source.js';
import { takeWorktreeFlag } from './worktree-flag.js';

type ProviderChoice = CliProviderId;

export interface RunOptions {
  task: string;
  workspace: string;
  provider: ProviderChoice;
  model: string | undefined;
  baseUrl: string | undefined;
  approve: Risk[];
  /** --approve all: commands of every class but dangerous run unasked. */
  approveUnclassified: boolean;
  /** --approve memory (or all): remember and forget run unasked. */
  approveMemory: boolean;
  allowCommands: string[];
  denyCommands: string[];
  log: string | undefined;
  maxTurns: number;
  /** Sub-agents: the cap on one child's turns, and the child turns allowed across the task. */
  subagents: { maxTurns: number; turnBudget: number };
  /** The model's context window; undefined: the window Keel knows for the model. */
  contextWindow: number | undefined;
  /** --reasoning: the model's default, off, a level or a thinking budget. */
  reasoning: ReasoningSetting;
  /** --max-tokens-param: which field the output limit goes in (auto: the model table's and server's rules). */
  maxTokensParameter: MaxTokensParamChoice;
  /** --wire-api: chat completions or the Responses API (auto: the model table's). */
  wireApi: WireApiChoice;
  /** --region: Bedrock's AWS region, Vertex's location; undefined: the cloud's environment variable. */
  region: string | undefined;
  /** --project: Vertex's Google Cloud project; undefined: the environment's or the credentials'. */
  project: string | undefined;
  /** More mcp.json files, as trusted as the user's own. */
  mcpConfigs: string[];
  /** --mcp-workspace: start the workspace's .vscode/mcp.json servers too. */
  mcpWorkspace: boolean;
  /** More a2a.json files, as trusted as the user's own. */
  a2aConfigs: string[];
  /** --a2a-workspace: offer the workspace's .keel/a2a.json agents too. */
  a2aWorkspace: boolean;
  /** --output: the streamed transcript, the result record as JSON, or events as JSON lines. */
  output: OutputMode;
  /** --max-cost, --max-tokens: the task stops once it passes one. */
  budget: BudgetCaps;
  /** False with --no-checkpoints: no prior bytes are kept, and edits never ask for want of one. */
  checkpoints: boolean;
  /** False with --no-problems: edits do not report the problems the project's checkers find. */
  problems: boolean;
  /** --sandbox: which commands run in the OS sandbox. */
  sandbox: SandboxMode;
  /** --pass-env: inherited variables commands get though they look like credentials. */
  passEnv: string[];
  /** --mode: the mode the task is sent in (absent: agent for a new task). */
  mode?: AgentMode;
  /** --agent: the custom agent the task runs as (its instructions, its tools). */
  agent?: string;
  /** --allow-hooks: the workspace's hooks (.keel/hooks.json, .claude/settings*.json) run too, in the sandbox. */
  allowHooks?: boolean;
  /** --allow-hooks-unsandboxed: they run (implies allowHooks) as the user's shell would run them. */
  hooksUnsandboxed?: boolean;
  /** --allow-host: hosts web_fetch may reach though they are not public (a docs server on this machine). */
  allowHosts?: string[];
  /** --worktree [NAME] [--from REF]: the task runs in a new git worktree on branch keel/NAME. */
  worktree?: { name?: string; from?: string };
  /** Folders outside the workspace sandboxed commands may read (a worktree's linked dependencies). */
  readOnlyFolders?: string[];
}

export { InputError, UsageError };

export function parseRunArgs(argv: string[], cwd: string, readStdin: () => Buffer = readProcessStdin): RunOptions {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h') throw new UsageError('Give a command: keel run "<task>".');
  if (command !== 'run')
    throw new UsageError(
      `Unknown command "${command}": the commands are "run", "resume", "continue", "restore", "memory", "replay", "fleet", "serve", "worktree" and "review".`,
    );
  const { args, worktree } = takeWorktreeFlag(rest);
  const { values, positionals } = runFlags(args);
  if (positionals.length > 1 || (positionals.length === 0 && values['task-file'] === undefined) || positionals[0]?.trim() === '')
    throw new UsageError('Give exactly one task, in quotes: keel run "fix the failing tests" (or - for stdin, or --task-file FILE).');
  if (values['approve-plan']) throw new UsageError('--approve-plan is for keel resume LOG (a Plan run that ended with a plan).');
  if (values.from !== undefined && !worktree)
    throw new UsageError('--from is for keel run --worktree (the ref the new branch starts from).');
  const task = taskText({ given: positionals[0], taskFile: values['task-file'], what: 'task', readStdin });
  const options = runOptions(values, task, cwd);
  return worktree ? { ...options, worktree: { ...worktree, ...(values.from === undefined ? {} : { from: values.from }) } } : options;
}

export function parseResumeArgs(argv: string[], cwd: string): { options: RunOptions; log: string; approvePlan: boolean } {
  const { values, positionals } = runFlags(argv);
  if (positionals.length !== 1) throw new UsageError('Give exactly one log: keel resume LOG (the --log file of the interrupted run).');
  if (values.log !== undefined) throw new UsageError('keel resume appends to the log it resumes: --log is not taken.');
  if (values.mode !== undefined) throw new UsageError('keel resume continues in the mode its log holds: --mode is not taken.');
  if (values.agent !== undefined) throw new UsageError('keel resume continues as the agent its log holds: --agent is not taken.');
  if (values.from !== undefined) throw new UsageError('--from is for keel run --worktree; keel resume runs where its log ran.');
  if (values['task-file'] !== undefined) throw new UsageError('keel resume sends no new task: keel continue LOG --task-file FILE does.');
  const log = positionals[0]!;
  const approvePlan = values['approve-plan'] ?? false;
  return { options: { ...runOptions(values, '', cwd), log }, log, approvePlan };
}

/** `keel continue LOG "message"`: resume's flags, and the follow-up to send. */
export function parseContinueArgs(
  argv: string[],
  cwd: string,
  readStdin: () => Buffer = readProcessStdin,
): { options: RunOptions; log: string; message: string } {
  const { values, positionals } = runFlags(argv);
  const count = values['task-file'] === undefined ? 2 : 1;
  if (positionals.length !== count)
    throw new UsageError('Give a log and a message: keel continue LOG "message" (or -, or --task-file FILE).');
  if (values.log !== undefined) throw new UsageError('keel continue appends to the log it continues: --log is not taken.');
  if (values.agent !== undefined) throw new UsageError('keel continue goes on as the agent its log holds: --agent is not taken.');
  if (values['approve-plan'] !== undefined) throw new UsageError("--approve-plan is keel resume's: keel resume LOG --approve-plan.");
  const log = positionals[0]!;
  const message = taskText({ given: positionals[1], taskFile: values['task-file'], what: 'message', readStdin });
  if (!message.trim()) throw new UsageError('The message is empty: say what the task should do next.');
  return { options: { ...runOptions(values, message, cwd), log }, log, message };
}

function runFlags(args: string[]) {
  let parsed: ReturnType<typeof parseRunFlags>;
  try {
    parsed = parseRunFlags(args);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  return { ...parsed, values: withConfigFile(parsed.values) };
}

function runOptions(values: ReturnType<typeof parseRunFlags>['values'], task: string, cwd: string): RunOptions {
  const policy = parsePolicyFlags(values);
  return {
    task,
    workspace: values.workspace ?? cwd,
    provider: parseProvider(values.provider),
    model: values.model,
    baseUrl: parseUrl(values['base-url']),
    approve: policy.autoApprove,
    approveUnclassified: policy.approveUnclassified,
    approveMemory: policy.autoApproveMemory ?? false,
    allowCommands: policy.commandsAllow,
    denyCommands: policy.commandsDeny,
    log: values.log,
    maxTurns: parseCount('--max-turns', values['max-turns'], DEFAULT_MAX_TURNS),
    subagents: {
      maxTurns: parseCount('--subagent-max-turns', values['subagent-max-turns'], SUBAGENT_DEFAULTS.maxTurns),
      turnBudget: parseCount('--subagent-budget', values['subagent-budget'], SUBAGENT_DEFAULTS.turnBudget),
    },
    contextWindow: parseContextWindow(values['context-window']),
    reasoning: parseReasoningFlag(values.reasoning),
    maxTokensParameter: parseMaxTokensParam(values['max-tokens-param']),
    wireApi: parseWireApi(values['wire-api']),
    region: parseCloudName('--region', values.region),
    project: parseCloudName('--project', values.project),
    mcpConfigs: values['mcp-config'] ?? [],
    mcpWorkspace: values['mcp-workspace'] ?? false,
    a2aConfigs: values['a2a-config'] ?? [],
    a2aWorkspace: values['a2a-workspace'] ?? false,
    output: parseOutput(values.output),
    budget: parseBudget(values),
    checkpoints: values['no-checkpoints'] !== true,
    problems: values['no-problems'] !== true,
    sandbox: parseSandbox(values.sandbox),
    passEnv: (values['pass-env'] ?? []).map(parseVariableName),
    ...(values.mode === undefined ? {} : { mode: parseMode(values.mode) }),
    ...(values.agent === undefined ? {} : { agent: values.agent }),
    ...(values['allow-hooks'] || values['allow-hooks-unsandboxed'] ? { allowHooks: true } : {}),
    ...(values['allow-hooks-unsandboxed'] ? { hooksUnsandboxed: true } : {}),
    ...(values['allow-host'] ? { allowHosts: values['allow-host'].map(parseHost) } : {}),
  };
}

function parseRunFlags(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    options: {
      workspace: { type: 'string' },
      provider: { type: 'string' },
      model: { type: 'string' },
      'base-url': { type: 'string' },
      approve: { type: 'string' },
      'allow-command': { type: 'string', multiple: true },
      'deny-command': { type: 'string', multiple: true },
      log: { type: 'string' },
      'max-turns': { type: 'string' },
      'subagent-max-turns': { type: 'string' },
      'subagent-budget': { type: 'string' },
      'context-window': { type: 'string' },
      reasoning: { type: 'string' },
      'max-tokens-param': { type: 'string' },
      'wire-api': { type: 'string' },
      region: { type: 'string' },
      project: { type: 'string' },
      'mcp-config': { type: 'string', multiple: true },
      'mcp-workspace': { type: 'boolean' },
      'a2a-config': { type: 'string', multiple: true },
      'a2a-workspace': { type: 'boolean' },
      output: { type: 'string' },
      'max-cost': { type: 'string' },
      'max-tokens': { type: 'string' },
      'no-checkpoints': { type: 'boolean' },
      'no-problems': { type: 'boolean' },
      sandbox: { type: 'string' },
      'pass-env': { type: 'string', multiple: true },
      mode: { type: 'string' },
      agent: { type: 'string' },
      'task-file': { type: 'string' },
      config: { type: 'string' },
      // keel resume only (parseRunArgs refuses it).
      'approve-plan': { type: 'boolean' },
      'allow-hooks': { type: 'boolean' },
      'allow-hooks-unsandboxed': { type: 'boolean' },
      'allow-host': { type: 'string', multiple: true },
      // keel run --worktree only (--worktree itself is taken out before parsing: its value is optional).
      from: { type: 'string' },
    },
  });
}
