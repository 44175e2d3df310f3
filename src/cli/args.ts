// `keel run …` flags → options, or a usage error that names the flag.
import { parseArgs } from 'node:util';
import type { BudgetCaps } from '../compose/index.js';
import { SUBAGENT_DEFAULTS, type Risk, type SandboxMode, SandboxModeSchema } from '../kernel/index.js';
import { PROVIDER_KEY_VARIABLES } from '../node/command-shell.js';

export const USAGE = `Usage:
  keel run [--workspace DIR] [--provider anthropic|openai|scripted] [--model NAME] [--base-url URL]
           [--approve read,write,execute,network | --approve all] [--allow-command PREFIX]...
           [--deny-command PREFIX]... [--pass-env NAME]... [--log FILE] [--max-turns N]
           [--context-window TOKENS] [--subagent-max-turns N] [--subagent-budget N]
           [--mcp-config FILE]... [--mcp-workspace] [--a2a-config FILE]... [--a2a-workspace]
           [--sandbox unasked|everything|off] [--output text|json|jsonl] [--max-cost USD]
           [--max-tokens N] "<task>"
  keel memory list [--workspace DIR] [--json]
  keel memory add [--workspace DIR] [--scope workspace|user] [--tag WORD]... [--path FILE]...
                  [--expires DATE] "<text>"
  keel memory forget [--workspace DIR] ID
  keel replay LOG [--workspace DIR] [--until SEQ] [--json] [--approve …] [--allow-command …]...
                  [--deny-command …]...
  keel fleet add|work|run|status|results …   many headless tasks, on Redis or here (keel fleet --help)
  keel serve --a2a [--port N] …              Keel as an A2A agent (keel serve --help)

What runs without asking:
  --approve RISKS          a comma list of read, write, execute, network. read (the default):
                           reading and searching inside the workspace. write: edits outside
                           protected paths. execute: test runs and commands Keel classifies as
                           read-only; other commands still ask.
  --approve all            every risk, and commands of every kind: builds, scripts, installs,
                           network use, lines Keel cannot classify (node script.js, make, …).
                           Never unasked: dangerous commands (sudo, rm -rf /, dd to a disk, …)
                           and protected paths (.git, .vscode, .env, …): asked at a terminal,
                           refused without one. Always refused: --deny-command prefixes and
                           paths outside the workspace.
  --allow-command PREFIX   commands that start with these exact words run without asking,
                           e.g. --allow-command make --allow-command "npm run build"
                           ("make" covers "make test", not "makeup"). Repeatable.
  --deny-command PREFIX    commands that start with these words are always refused. Repeatable.
At a terminal Keel asks about anything else; without one it is rejected and the model is told.

The sandbox (Linux, bubblewrap): commands that run unasked run in it, with no network, the file
system read-only, only the workspace, toolchains and system folders visible (your home, other
projects and .env files hidden), a private /tmp thrown away afterwards; a test run may write in
the workspace but not its protected paths (.git, .vscode, .keel, AGENTS.md, manifests and
lockfiles). Where there is no sandbox Keel says so on stderr and every command asks.
  --sandbox unasked        (the default) sandbox what runs unasked; commands you approve (at the
                           terminal, by --approve all, or earlier in the task) run as your shell
                           would run them.
  --sandbox everything     sandbox every command; those you approve may write in the workspace.
  --sandbox off            no sandbox: what runs unasked is decided by the command classifier
                           alone, as Keel did before it had a sandbox.
Whatever the sandbox, a command's processes end when it ends, and when keel ends (even killed).

Output and exit status:
  --output text            (default) the run as it streams, then a line of context and cost.
  --output json            only the result, at the end: status, reason, files changed with +/−
                           and the patch, the last test result, turns, tokens, cost, log path
                           (schemas/run-result.schema.json). Asks nothing: the headless policy.
  --output jsonl           each event as a JSON line as it happens, then {"type":"result",…}.
  --max-cost USD           stop the task once it has cost this much (a model with a known price).
  --max-tokens N           stop the task once it has used this many tokens (all kinds).
  Exit status: 0 done, 1 failed (or stopped by --max-cost/--max-tokens), 2 usage or config
  error, 3 a call was refused or needed an approval nobody gave, 130 stopped (Ctrl+C).

  --context-window TOKENS  the model's context window, for a local model whose window Keel
                           cannot know (default: Keel's table, 32768 for unknown models). As the
                           context fills, older steps are folded into short notes.
  --subagent-max-turns N   the most turns one sub-agent (delegate, delegate_plan) may take
                           (default 10; a model asking for more gets this many).
  --subagent-budget N      the sub-agent turns allowed across the task (default 40).
Sub-agents work under the same approvals; their lines are indented under the call that
started them, and each plan task's state is printed as it changes.

MCP servers (their tools are offered as mcp__SERVER__TOOL, plus mcp_read_resource):
  from $XDG_CONFIG_HOME/keel/mcp.json (else ~/.config/keel/mcp.json; the extension reads the same
  file) and each --mcp-config FILE, in VS Code's mcp.json form:
  {"servers": {"NAME": {"type": "stdio", "command": "…", "args": […], "env": {…}}
               | {"type": "http", "url": "…", "headers": {…}}}}
  --mcp-config FILE        more servers, started like your own. Repeatable.
  --mcp-workspace          also start the servers the workspace's .vscode/mcp.json defines.
                           Without it they are listed and skipped: a workspace must not run
                           programs on your machine unasked.
  An MCP tool call is risk execute: it asks (or is rejected without a terminal) unless you pass
  --approve execute. A server gets the environment commands get (no API keys, no credentials)
  plus its "env".
  A call that takes over 60 s is abandoned; a crashed server restarts on the next call (3 times).

Remote agents (A2A), offered to the model as delegate_remote {agent, task}:
  from $XDG_CONFIG_HOME/keel/a2a.json (else ~/.config/keel/a2a.json) and each --a2a-config FILE:
  {"agents": {"NAME": {"url": "http://…", "headers": {…}, "description": "…"}}}
  --a2a-config FILE        more agents, used like your own. Repeatable.
  --a2a-workspace          also offer the agents the workspace's .keel/a2a.json lists (without it
                           they are listed and skipped).
  A call is risk network: it asks (or is refused without a terminal) unless --approve network.
  What a remote agent returns is data for the model; it never approves or applies anything here.

API keys come from ANTHROPIC_API_KEY / OPENAI_API_KEY (optional for a local --base-url); commands
Keel runs never see them. --provider scripted runs a built-in demo that needs no key.

Commands, test runs and MCP servers also never see the variables of your environment that look
like credentials: a name such as GITHUB_TOKEN, NPM_TOKEN, AWS_SECRET_ACCESS_KEY, DB_PASSWORD or
STRIPE_KEY, or a value that holds a key, token, private key or a password in a URL (secretlint's
recommended rules and a few of Keel's). keel run names them on stderr when it starts.
  --pass-env NAME          pass this variable to commands anyway (e.g. --pass-env NPM_TOKEN for
                           an approved npm publish). Repeatable. Keel's own API keys are never
                           passed.

Memories (what earlier tasks or you asked Keel to remember) are kept in
$XDG_CONFIG_HOME/keel/memory (else ~/.config/keel/memory), never in the workspace: the user's
file, and one file per workspace. \`keel memory add\` keeps your own words (at most 1,000
characters; text that looks like a secret is refused); --path names files it concerns, so a
later recall can say when they changed. \`keel memory forget\` deletes one for good.

Skills: folders with a SKILL.md (YAML front matter: name, description, optional tools or
allowed-tools; then markdown instructions; other files are its resources), in the workspace's
.keel/skills/NAME/ and in $XDG_CONFIG_HOME/keel/skills/NAME/ (else ~/.config/keel/skills/NAME/).
The model sees each skill's name and description and loads one with use_skill; while a skill
that lists tools is active, only those tools are offered. A skill with a problem is skipped with
its file and line on stderr.

Checkpoints: before a step's first write, keel run keeps the prior bytes of the files it changes
in $XDG_CACHE_HOME/keel/checkpoints (else ~/.cache/keel/checkpoints), never in the workspace or
.git; the scan for commands skips what .gitignore and .keelignore ignore. Each checkpoint is an
event in the --log file. Old tasks' checkpoints go first past 500 MB per workspace.

\`keel replay LOG\` plays a recorded task's model outputs (no model is called) through this build's
tools and policy, in a scratch copy of the workspace in the task's starting state, and prints
each step that differs (step, seq, kind: edit, observation or policy, recorded and replayed), or
"replays clean". Exit 0 clean, 1 differences, 2 usage.
  --workspace DIR          a folder in the state the task started from (copied; never written).
                           Default: the current folder, with every file the task changed put
                           back from its checkpoints (run it in the task's workspace).
  --until SEQ              replay the log up to this event sequence number.
  --json                   the report as JSON.
  --approve, --allow-command, --deny-command: as the task ran with them (its policy decisions
                           are compared under the same settings).`;

type ProviderChoice = 'anthropic' | 'openai' | 'scripted';

export interface RunOptions {
  task: string;
  workspace: string;
  provider: ProviderChoice;
  model: string | undefined;
  baseUrl: string | undefined;
  approve: Risk[];
  /** --approve all: commands of every class but dangerous run unasked. */
  approveUnclassified: boolean;
  allowCommands: string[];
  denyCommands: string[];
  log: string | undefined;
  maxTurns: number;
  /** Sub-agents: the cap on one child's turns, and the child turns allowed across the task. */
  subagents: { maxTurns: number; turnBudget: number };
  /** The model's context window; undefined: the window Keel knows for the model. */
  contextWindow: number | undefined;
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
  /** --sandbox: which commands run in the OS sandbox. */
  sandbox: SandboxMode;
  /** --pass-env: inherited variables commands get though they look like credentials. */
  passEnv: string[];
}

const OUTPUT_MODES = ['text', 'json', 'jsonl'] as const;
type OutputMode = (typeof OUTPUT_MODES)[number];

export class UsageError extends Error {
  override name = 'UsageError';
}

const RISKS: Risk[] = ['read', 'write', 'execute', 'network'];
const PROVIDERS: ProviderChoice[] = ['anthropic', 'openai', 'scripted'];

export function parseRunArgs(argv: string[], cwd: string): RunOptions {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h') throw new UsageError('Give a command: keel run "<task>".');
  if (command !== 'run')
    throw new UsageError(`Unknown command "${command}": the commands are "run", "memory", "replay", "fleet" and "serve".`);
  let parsed: ReturnType<typeof parseRunFlags>;
  try {
    parsed = parseRunFlags(rest);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1 || !positionals[0]!.trim())
    throw new UsageError('Give exactly one task, in quotes: keel run "fix the failing tests".');
  const policy = parsePolicyFlags(values);
  return {
    task: positionals[0]!,
    workspace: values.workspace ?? cwd,
    provider: parseProvider(values.provider),
    model: values.model,
    baseUrl: parseUrl(values['base-url']),
    approve: policy.autoApprove,
    approveUnclassified: policy.approveUnclassified,
    allowCommands: policy.commandsAllow,
    denyCommands: policy.commandsDeny,
    log: values.log,
    maxTurns: parseCount('--max-turns', values['max-turns'], 25),
    subagents: {
      maxTurns: parseCount('--subagent-max-turns', values['subagent-max-turns'], SUBAGENT_DEFAULTS.maxTurns),
      turnBudget: parseCount('--subagent-budget', values['subagent-budget'], SUBAGENT_DEFAULTS.turnBudget),
    },
    contextWindow: parseContextWindow(values['context-window']),
    mcpConfigs: values['mcp-config'] ?? [],
    mcpWorkspace: values['mcp-workspace'] ?? false,
    a2aConfigs: values['a2a-config'] ?? [],
    a2aWorkspace: values['a2a-workspace'] ?? false,
    output: parseOutput(values.output),
    budget: parseBudget(values),
    sandbox: parseSandbox(values.sandbox),
    passEnv: (values['pass-env'] ?? []).map(parseVariableName),
  };
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
}) {
  return {
    autoApprove: parseApprove(values.approve),
    approveUnclassified: values.approve === 'all',
    commandsAllow: (values['allow-command'] ?? []).map((v) => parsePrefix('--allow-command', v)),
    commandsDeny: (values['deny-command'] ?? []).map((v) => parsePrefix('--deny-command', v)),
  };
}

function parseProvider(value: string | undefined): ProviderChoice {
  if (value === undefined) return 'anthropic';
  if ((PROVIDERS as string[]).includes(value)) return value as ProviderChoice;
  throw new UsageError(`--provider must be one of ${PROVIDERS.join(', ')} (got "${value}").`);
}

function parseApprove(value: string | undefined): Risk[] {
  if (value === undefined || value === '') return ['read'];
  if (value === 'all') return [...RISKS];
  const parts = value.split(',').map((p) => p.trim());
  const bad = parts.filter((p) => !(RISKS as string[]).includes(p));
  if (bad.length) throw new UsageError(`--approve takes ${RISKS.join(',')} or all (unknown: ${bad.join(', ')}).`);
  return parts as Risk[];
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

function parseContextWindow(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 2_048 || n > 10_000_000)
    throw new UsageError(`--context-window must be a whole number of tokens from 2048 to 10000000 (got "${value}").`);
  return n;
}

function parseUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  try {
    new URL(value);
  } catch {
    throw new UsageError(`--base-url must be a URL such as http://127.0.0.1:11434/v1 (got "${value}").`);
  }
  return value;
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
      'mcp-config': { type: 'string', multiple: true },
      'mcp-workspace': { type: 'boolean' },
      'a2a-config': { type: 'string', multiple: true },
      'a2a-workspace': { type: 'boolean' },
      output: { type: 'string' },
      'max-cost': { type: 'string' },
      'max-tokens': { type: 'string' },
      sandbox: { type: 'string' },
      'pass-env': { type: 'string', multiple: true },
    },
  });
}
