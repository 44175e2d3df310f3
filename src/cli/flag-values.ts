// The values of `keel run`'s flags, one parser each: a wrong value is a usage error that names the
// flag and says what it takes. Kept apart from args.ts, which maps flags to options.
import type { BudgetCaps } from '../compose/index.js';
import { AgentModeSchema, type AgentMode, type Risk, type RunPolicy, type SandboxMode, SandboxModeSchema } from '../kernel/index.js';
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
import { UsageError } from './cli-errors.js';

const OUTPUT_MODES = ['text', 'json', 'jsonl'] as const;
export type OutputMode = (typeof OUTPUT_MODES)[number];

const RISKS: Risk[] = ['read', 'write', 'execute', 'network'];

/** A host web_fetch may reach though it is not public: `HOST` or `HOST:PORT`, nothing else of a URL. */
export function parseHost(value: string): string {
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

export function parseMode(value: string): AgentMode {
  const parsed = AgentModeSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new UsageError(`--mode must be one of ${AgentModeSchema.options.join(', ')} (got "${value}").`);
}

export function parseOutput(value: string | undefined): OutputMode {
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
export function parseProvider(value: string | undefined): CliProviderId {
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

export function parseReasoningFlag(value: string | undefined): ReasoningSetting {
  const parsed = parseReasoning(value);
  if (parsed === undefined) throw new UsageError(`--reasoning must be ${REASONING_CHOICES} (got "${value}").`);
  return parsed;
}

export function parseMaxTokensParam(value: string | undefined): MaxTokensParamChoice {
  if (value === undefined) return 'auto';
  const choice = MAX_TOKENS_PARAM_CHOICES.find((c) => c === value);
  if (choice) return choice;
  throw new UsageError(`--max-tokens-param must be one of ${MAX_TOKENS_PARAM_CHOICES.join(', ')} (got "${value}").`);
}

export function parseWireApi(value: string | undefined): WireApiChoice {
  if (value === undefined) return 'auto';
  const choice = WIRE_API_CHOICES.find((c) => c === value);
  if (choice) return choice;
  throw new UsageError(`--wire-api must be one of ${WIRE_API_CHOICES.join(', ')} (got "${value}").`);
}

export function parseContextWindow(value: string | undefined): number | undefined {
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
export function parseCloudName(flag: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/.test(value.trim()))
    throw new UsageError(`${flag} must be a name of letters, digits, - and _ (got "${value}"), such as us-east-1 or my-project.`);
  return value.trim();
}
