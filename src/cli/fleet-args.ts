// `keel fleet …` flags → settings, or a usage error that names the flag. A job given on the
// command line is checked by the same schema as a line of a jobs file.
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { FleetJobSchema, type FleetJob, type GateLimits } from '../fleet/index.js';
import { DEFAULT_MAX_TURNS, type RunPolicy, type SandboxMode } from '../kernel/index.js';
import type { CliProviderId } from '../providers/index.js';
import { UsageError } from './cli-errors.js';
import { parseBudget, parseCount, parsePolicyFlags, parseProvider, parseSandbox, parseUrl, parseVariableName } from './flag-values.js';

export const FLEET_USAGE = `Usage:
  keel fleet add [--redis URL] [--queue NAME] [--replace] JOBS.jsonl | [--workspace DIR | --repo URL [--ref REF]]
                 [--id ID] [--approve …] [--allow-command P]... [--deny-command P]... [--model NAME]
                 [--max-turns N] [--max-cost USD] [--max-tokens N] "<task>"    [--fleet-max-cost USD]
  keel fleet work [--redis URL] [--queue NAME] [--concurrency N] [worker flags]
  keel fleet run JOBS.jsonl [--concurrency N] [--json] [--fleet-max-cost USD] [--redis URL [--replace]] [worker flags]
  keel fleet status [--redis URL] [--queue NAME] [--json]
  keel fleet results [--redis URL] [--queue NAME] [--json]

A job is one JSON object per line of JOBS.jsonl:
  {"id": "fix-42", "workspace": "/abs/folder" | "repo": {"url": "https://…", "ref": "main"},
   "task": "…", "approve": ["read","write","execute"] | "all", "allowCommands": ["npm test"],
   "denyCommands": […], "sandbox": "everything", "mode": "agent" | "plan" | "ask", "model": "…",
   "maxTurns": 25, "budget": {"usd": 0.5, "tokens": 200000}}
A job's "approve", "allowCommands" and "sandbox" only narrow its worker's --approve,
--allow-command and --sandbox: a job runs with what both allow (its "denyCommands" add to the
worker's --deny-command), and what it asked for beyond that is said on stderr.
Each attempt runs in a fresh copy (or clone) of its workspace, under the same headless policy as
keel run --output json (nobody is asked: what is not pre-approved is refused), and keeps its
result (schemas/run-result.schema.json) and its event log. A job id already in the queue is refused
(exit 2) unless --replace, which removes the finished or waiting job of that id first (a running
one is never replaced). Redis: --redis URL, else $KEEL_REDIS_URL; without either, keel fleet run runs the
jobs here (no Redis needed) with the same job and result formats.

Worker flags (keel fleet work, keel fleet run):
  --approve RISKS|all      the most any job approves (default read, as keel run): a job approving
                           more runs with this; "all" lets a job approve all.
  --allow-command P        the command prefixes a job's allowCommands may use (repeatable; a job's
                           prefix must start with one of them).
  --deny-command P         refused in every job, beside the job's own denyCommands (repeatable).
  --concurrency N          jobs at once in this process (default 1).
  --provider, --base-url, --model, --context-window: as keel run; the provider, its URL and its
                           key are the worker's, never a job's (a job names only its model).
  --model-concurrency N    model requests in flight at once across the whole fleet (default: no cap).
  --model-rpm N            model requests started per minute across the whole fleet (default: no cap).
                           A 429 with retry-after pauses every worker until it passes.
  --fleet-max-cost USD     (add, run) the fleet's cost cap: once spent, running jobs stop as
                           over_budget at their next turn and no job starts.
  --dir DIR                where attempts' folders go (default $XDG_STATE_HOME/keel/fleet, else
                           ~/.local/state/keel/fleet); workspaces are removed after each job unless
                           --keep-workspaces.
  --allow-workspace DIR    (work) jobs may name local folders and file:// repositories under DIR
                           (repeatable); other jobs of the queue use git URLs only. keel fleet run
                           allows the folders its own jobs file names.
  --pass-env NAME          jobs' commands get this variable of the worker's environment though it
                           looks like a credential (repeatable; a job cannot ask for one).
  --sandbox MODE           unasked (default), everything or off, as keel run: a job's commands that
                           run unasked (read-only, test runs, its allowCommands) run in the OS
                           sandbox on its copy; with approve "all" (worker and job) its other
                           commands run unsandboxed in the copy (sandboxed too with everything). No
                           sandbox here: said once, and a job's commands then run only under approve
                           "all". A job may only ask for a stricter mode.
  --lock-seconds N         a job's lock: a worker that dies mid-job has its job handed to another
                           worker after about this long (default 30).
The first Ctrl+C (or SIGTERM) stops taking jobs and waits for the running ones; a second stops at
once (their jobs go to other workers when the lock lapses). A Redis that does not answer within
3 s at start is one line naming the URL and exit 2; an outage later is said once and waited out.
keel fleet status lists each worker with the jobs it runs, the finished jobs by outcome (as
keel fleet results counts them) and the jobs whose worker is gone (stalled).
Exit status of keel fleet run: 0 when every job is done, 1 when any failed or went over budget,
3 when any was refused (and none failed), 130 when stopped; 2 for usage and Redis errors.`;

export interface WorkerFlags {
  redisUrl: string | undefined;
  queue: string;
  concurrency: number;
  provider: CliProviderId;
  baseUrl: string | undefined;
  model: string | undefined;
  contextWindow: number | undefined;
  gate: GateLimits;
  dir: string;
  lockMs: number;
  keepWorkspaces: boolean;
  fleetMaxCost: number | undefined;
  json: boolean;
  /** --allow-workspace: the local folders (and file:// repositories) jobs from the queue may use. */
  allowWorkspaces: string[];
  /** --pass-env: the worker's variables its jobs' commands get though they look like credentials. */
  passEnv: string[];
  /** --sandbox: which of its jobs' commands run in the OS sandbox (the worker's choice, as --pass-env). */
  sandbox: SandboxMode;
  /**
   * --approve, --allow-command, --deny-command and --sandbox of work and run (serve: the served
   * policy): the most any job runs with. A job narrows them, never widens (src/cli/policy-ceiling.ts).
   */
  ceiling: RunPolicy;
}

export const FLEET_OPTIONS = {
  redis: { type: 'string' },
  queue: { type: 'string' },
  concurrency: { type: 'string' },
  provider: { type: 'string' },
  'base-url': { type: 'string' },
  model: { type: 'string' },
  'context-window': { type: 'string' },
  'model-concurrency': { type: 'string' },
  'model-rpm': { type: 'string' },
  dir: { type: 'string' },
  'lock-seconds': { type: 'string' },
  'keep-workspaces': { type: 'boolean' },
  replace: { type: 'boolean' },
  'fleet-max-cost': { type: 'string' },
  json: { type: 'boolean' },
  'allow-workspace': { type: 'string', multiple: true },
  'pass-env': { type: 'string', multiple: true },
  sandbox: { type: 'string' },
  // A job on the command line (keel fleet add).
  id: { type: 'string' },
  workspace: { type: 'string' },
  repo: { type: 'string' },
  ref: { type: 'string' },
  approve: { type: 'string' },
  'allow-command': { type: 'string', multiple: true },
  'deny-command': { type: 'string', multiple: true },
  'max-turns': { type: 'string' },
  'max-cost': { type: 'string' },
  'max-tokens': { type: 'string' },
} as const;

type FleetValues = ReturnType<typeof parseFleetFlags>['values'];

export function parseFleetFlags(args: string[]) {
  try {
    return parseArgs({ args, allowPositionals: true, options: FLEET_OPTIONS });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

export function workerFlags(values: FleetValues, env: NodeJS.ProcessEnv): WorkerFlags {
  return {
    redisUrl: redisUrl(values.redis ?? env.KEEL_REDIS_URL),
    queue: queueName(values.queue),
    concurrency: parseCount('--concurrency', values.concurrency, 1),
    provider: parseProvider(values.provider),
    baseUrl: parseUrl(values['base-url']),
    model: values.model,
    contextWindow: values['context-window'] === undefined ? undefined : parseCount('--context-window', values['context-window'], 0),
    gate: {
      concurrency: values['model-concurrency'] === undefined ? 0 : parseCount('--model-concurrency', values['model-concurrency'], 0),
      perMinute: values['model-rpm'] === undefined ? 0 : parseCount('--model-rpm', values['model-rpm'], 0),
    },
    dir: path.resolve(values.dir ?? defaultDir(env)),
    lockMs: parseCount('--lock-seconds', values['lock-seconds'], 30) * 1000,
    keepWorkspaces: values['keep-workspaces'] ?? false,
    fleetMaxCost: values['fleet-max-cost'] === undefined ? undefined : parseBudget({ 'max-cost': values['fleet-max-cost'] }).usd,
    json: values.json ?? false,
    allowWorkspaces: (values['allow-workspace'] ?? []).map((d) => path.resolve(d)),
    passEnv: (values['pass-env'] ?? []).map(parseVariableName),
    sandbox: parseSandbox(values.sandbox),
    ceiling: { ...parsePolicyFlags(values), sandbox: parseSandbox(values.sandbox) },
  };
}

/** The job `keel fleet add` describes with flags; folders are made absolute here, where they were named. */
export function jobFromFlags(values: FleetValues, task: string, cwd: string): FleetJob {
  const caps = parseBudget(values);
  const raw = {
    ...(values.id ? { id: values.id } : {}),
    ...(values.workspace ? { workspace: path.resolve(cwd, values.workspace) } : {}),
    ...(values.repo ? { repo: { url: values.repo, ...(values.ref ? { ref: values.ref } : {}) } } : {}),
    ...(values.workspace || values.repo ? {} : { workspace: cwd }),
    task,
    approve: values.approve === 'all' ? 'all' : (values.approve ?? 'read').split(',').map((r) => r.trim()),
    allowCommands: values['allow-command'] ?? [],
    denyCommands: values['deny-command'] ?? [],
    ...(values.model ? { model: values.model } : {}),
    ...(values['max-turns'] ? { maxTurns: parseCount('--max-turns', values['max-turns'], DEFAULT_MAX_TURNS) } : {}),
    budget: caps,
  };
  const parsed = FleetJobSchema.safeParse(raw);
  if (!parsed.success)
    throw new UsageError(
      `The job is not valid: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'job'}: ${i.message}`).join('; ')}`,
    );
  return parsed.data;
}

function redisUrl(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^rediss?:\/\//.test(value)) throw new UsageError(`--redis must be a redis:// or rediss:// URL (got "${value}").`);
  return value;
}

function queueName(value: string | undefined): string {
  if (value === undefined) return 'keel';
  if (!/^[\w.-]{1,64}$/.test(value)) throw new UsageError(`--queue takes letters, digits, ".", "_" and "-" (got "${value}").`);
  return value;
}

function defaultDir(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_STATE_HOME && path.isAbsolute(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : path.join(os.homedir(), '.local', 'state');
  return path.join(base, 'keel', 'fleet');
}
