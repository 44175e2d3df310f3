// `keel run …` flags → options, or a usage error that names the flag.
import { parseArgs } from 'node:util';
import type { BudgetCaps } from '../compose/index.js';
import {
  AgentModeSchema,
  DEFAULT_MAX_TURNS,
  SUBAGENT_DEFAULTS,
  type AgentMode,
  type Risk,
  type RunPolicy,
  type SandboxMode,
  SandboxModeSchema,
} from '../kernel/index.js';
import { PROVIDER_KEY_VARIABLES } from '../node/command-shell.js';
import { checkBaseUrl } from '../providers/base-url.js';
import {
  CLI_PROVIDER_IDS,
  type CliProviderId,
  DEFAULT_VENDOR,
  MAX_TOKENS_PARAM_CHOICES,
  type MaxTokensParamChoice,
  parseReasoning,
  REASONING_CHOICES,
  type ReasoningSetting,
  WIRE_API_CHOICES,
  type WireApiChoice,
} from '../providers/index.js';

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

const OUTPUT_MODES = ['text', 'json', 'jsonl'] as const;
type OutputMode = (typeof OUTPUT_MODES)[number];

import { InputError, UsageError } from './cli-errors.js';
import { readProcessStdin, taskText } from './task-source.js';
import { withConfigFile } from './config-file.js';
import { takeWorktreeFlag } from './worktree-flag.js';

export { InputError, UsageError };

const RISKS: Risk[] = ['read', 'write', 'execute', 'network'];

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

/** A host web_fetch may reach though it is not public: `HOST` or `HOST:PORT`, nothing else of a URL. */
function parseHost(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(`http://${value.trim()}`);
  } catch {
    url = undefined;
  }
  const bare = url && !url.username && !url.password && url.pathname === '/' && !url.search && !url.hash;
  if (!bare || value.trim() === '') throw new UsageError(`--allow-host takes a host or host:port such as localhost:8080 (got "${value}").`);
  return value.trim();
}

function parseMode(value: string): AgentMode {
  const parsed = AgentModeSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new UsageError(`--mode must be one of ${AgentModeSchema.options.join(', ')} (got "${value}").`);
}

function parseOutput(value: string | undefined): OutputMode {
  if (value === undefined) return 'text';
  if ((OUTPUT_MODES as readonly string[]).includes(value)) return value as OutputMode;
  throw new UsageError(`--output must be one of ${OUTPUT_MODES.join(', ')} (got "${value}").`);
}

/** --max-cost USD and --max-tokens N (the same caps a fleet job's "budget" sets). */
export function parseBudget(values: { 'max-cost'?: string | undefined; 'max-tokens'?: string | undefined }): BudgetCaps {
  const usd = values['max-cost'];
  const caps: BudgetCaps = {};
  if (usd !== undefined) {
    const n = Number(usd);
    if (!Number.isFinite(n) || n <= 0) throw new UsageError(`--max-cost must be a positive number of US dollars (got "${usd}").`);
    caps.usd = n;
  }
  if (values['max-tokens'] !== undefined) caps.tokens = parseCount('--max-tokens', values['max-tokens'], 0);
  return caps;
}

/** --sandbox for keel run, and for keel fleet work|run and keel serve --a2a (the worker's choice). */
export function parseSandbox(value: string | undefined): SandboxMode {
  if (value === undefined) return 'unasked';
  const parsed = SandboxModeSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new UsageError(`--sandbox must be one of ${SandboxModeSchema.options.join(', ')} (got "${value}").`);
}

/** The policy flags keel run and keel replay share: --approve, --allow-command, --deny-command. */
export function parsePolicyFlags(values: {
  approve?: string | undefined;
  'allow-command'?: string[] | undefined;
  'deny-command'?: string[] | undefined;
}): RunPolicy {
  const { risks, memory } = parseApprove(values.approve);
  return {
    autoApprove: risks,
    approveUnclassified: values.approve === 'all',
    autoApproveMemory: memory,
    commandsAllow: (values['allow-command'] ?? []).map((v) => parsePrefix('--allow-command', v)),
    commandsDeny: (values['deny-command'] ?? []).map((v) => parsePrefix('--deny-command', v)),
  };
}

/** True when the user gave any of the policy flags (a replay then decides with them, not the log's). */
export function hasPolicyFlags(values: {
  approve?: unknown;
  'allow-command'?: unknown;
  'deny-command'?: unknown;
  sandbox?: unknown;
}): boolean {
  return [values.approve, values['allow-command'], values['deny-command'], values.sandbox].some((v) => v !== undefined);
}

/** --provider for keel run and keel fleet: a vendor of the registry, or the demo. */
export function parseProvider(value: string | undefined): ProviderChoice {
  if (value === undefined) return DEFAULT_VENDOR;
  const known = CLI_PROVIDER_IDS.find((id) => id === value);
  if (known) return known;
  throw new UsageError(`--provider must be one of ${CLI_PROVIDER_IDS.join(', ')} (got "${value}").`);
}

/** --approve's risks, and whether memory writes (remember, forget) run unasked too. */
function parseApprove(value: string | undefined): { risks: Risk[]; memory: boolean } {
  if (value === undefined || value === '') return { risks: ['read'], memory: false };
  if (value === 'all') return { risks: [...RISKS], memory: true };
  const parts = value.split(',').map((p) => p.trim());
  const bad = parts.filter((p) => !(RISKS as string[]).includes(p) && p !== 'memory');
  if (bad.length) throw new UsageError(`--approve takes ${RISKS.join(',')},memory or all (unknown: ${bad.join(', ')}).`);
  return { risks: parts.filter((p) => p !== 'memory') as Risk[], memory: parts.includes('memory') };
}

/** A command prefix is plain words: a shell operator in it would not mean what it seems to. */
function parsePrefix(flag: string, value: string): string {
  const words = value.trim();
  if (!words) throw new UsageError(`${flag} needs a command prefix such as "make" or "npm run build".`);
  if (/[;&|<>()`$\\'"\n]/.test(words))
    throw new UsageError(`${flag} takes plain words such as "npm run build", without quotes or shell operators (got "${value}").`);
  return words;
}

/** A variable name as the shell writes one; Keel's own keys are never passed, so naming one is a mistake. */
export function parseVariableName(value: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(value)) throw new UsageError(`--pass-env takes a variable name such as NPM_TOKEN (got "${value}").`);
  if (PROVIDER_KEY_VARIABLES.includes(value)) throw new UsageError(`--pass-env ${value}: Keel never passes its own API keys to commands.`);
  return value;
}

export function parseCount(flag: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} must be a whole number of at least 1 (got "${value}").`);
  return n;
}

function parseReasoningFlag(value: string | undefined): ReasoningSetting {
  const parsed = parseReasoning(value);
  if (parsed === undefined) throw new UsageError(`--reasoning must be ${REASONING_CHOICES} (got "${value}").`);
  return parsed;
}

function parseMaxTokensParam(value: string | undefined): MaxTokensParamChoice {
  if (value === undefined) return 'auto';
  const choice = MAX_TOKENS_PARAM_CHOICES.find((c) => c === value);
  if (choice) return choice;
  throw new UsageError(`--max-tokens-param must be one of ${MAX_TOKENS_PARAM_CHOICES.join(', ')} (got "${value}").`);
}

function parseWireApi(value: string | undefined): WireApiChoice {
  if (value === undefined) return 'auto';
  const choice = WIRE_API_CHOICES.find((c) => c === value);
  if (choice) return choice;
  throw new UsageError(`--wire-api must be one of ${WIRE_API_CHOICES.join(', ')} (got "${value}").`);
}

function parseContextWindow(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 2_048 || n > 10_000_000)
    throw new UsageError(`--context-window must be a whole number of tokens from 2048 to 10000000 (got "${value}").`);
  return n;
}

/** --base-url for keel run, resume and fleet: an http(s) URL with its scheme (providers/base-url.ts). */
export function parseUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const checked = checkBaseUrl(value, '--base-url');
  if (!checked.ok) throw new UsageError(`${checked.message} For example: http://127.0.0.1:11434/v1.`);
  return value.trim();
}

/** --region and --project: a cloud's name for a place or a project (letters, digits, - and _). */
function parseCloudName(flag: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/.test(value.trim()))
    throw new UsageError(`${flag} must be a name of letters, digits, - and _ (got "${value}"), such as us-east-1 or my-project.`);
  return value.trim();
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
