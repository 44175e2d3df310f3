// Keel's settings, read from the `keel.*` configuration into one validated value. Pure: the
// host passes each setting's inspection (WorkspaceConfiguration.inspect), so the levels a value
// may come from are decided here and unit-tested.
//
// Where the API key goes and what runs unasked are the user's choice alone: the user-only
// settings are read from the user's settings (or the defaults), never from a workspace or
// folder, whatever the editor does with their declared scope. The deny list is the union of
// every level, so a workspace can add to it but never empty it.
import { type Risk, type SandboxMode, SandboxModeSchema } from '../../kernel/contracts/index.js';
import { DEFAULT_MAX_TURNS, SUBAGENT_DEFAULTS } from '../../kernel/limits.js';
import {
  DEFAULT_VENDOR,
  MAX_TOKENS_PARAM_CHOICES,
  type MaxTokensParamChoice,
  parseReasoning,
  parseVendorId,
  type ReasoningSetting,
  WIRE_API_CHOICES,
  type WireApiChoice,
} from '../../providers/index.js';
import type { ProviderName } from '../keys/api-key.js';

export interface KeelSettings {
  provider: ProviderName;
  /** Empty: the provider's default model. */
  model: string;
  /** Empty: the provider's official endpoint. */
  baseUrl: string;
  /** The model's context window in tokens; 0: the window Keel knows for the model. */
  contextWindow: number;
  /** keel.reasoning: the model's default, off, a level, or a thinking budget in tokens. */
  reasoning: ReasoningSetting;
  /** keel.maxTokensParameter: which field the output limit goes in (auto: the model table's and server's rules). */
  maxTokensParameter: MaxTokensParamChoice;
  /** keel.wireApi: chat completions or the Responses API (auto: the model table's). */
  wireApi: WireApiChoice;
  /** keel.region: Bedrock's AWS region, Vertex's location; empty: the cloud's environment variable. User settings only. */
  region: string;
  /** keel.project: Vertex's Google Cloud project; empty: the environment's or the credentials'. User settings only. */
  project: string;
  maxTurns: number;
  autoApprove: Risk[];
  commandsAllow: string[];
  commandsDeny: string[];
  /** Inherited variables commands get though they look like credentials. User settings only. */
  commandsPassEnv: string[];
  /** Hosts web_fetch may reach though they are not public (`host` or `host:port`). User settings only. */
  webAllowHosts: string[];
  /** Sub-agents: the cap on one child's turns, and the child turns allowed across a task. */
  subagents: { maxTurns: number; turnBudget: number };
  /** Risk of MCP tools by server name or `server/tool` (default execute). User settings only. */
  mcpRisk: Record<string, Risk>;
  /** Which commands run in the OS sandbox (default: those that run unasked). User settings only. */
  sandbox: SandboxMode;
}

/** Settings (under `keel.`) a workspace may not set: package.json declares them application-scoped. */
const USER_ONLY_SETTINGS = [
  'provider',
  'baseUrl',
  'region',
  'project',
  'autoApprove',
  'commands.allow',
  'commands.passEnv',
  'mcp.risk',
  'sandbox',
  'web.allowHosts',
] as const;

/** The levels of one setting, as `WorkspaceConfiguration.inspect` reports them. */
export interface SettingLevels {
  /** The editor's own effective value (`get`), which honours Restricted Mode; used for the other settings. */
  value?: unknown;
  defaultValue?: unknown;
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}
export type InspectSetting = (key: string) => SettingLevels | undefined;

const RISKS: readonly Risk[] = ['read', 'write', 'execute', 'network'];
const USER_ONLY: ReadonlySet<string> = new Set(USER_ONLY_SETTINGS);

export function readSettings(inspect: InspectSetting): KeelSettings {
  const get = (key: string) => effectiveValue(key, inspect(key));
  const provider = parseVendorId(get('provider')) ?? DEFAULT_VENDOR;
  const maxTurnsRaw = Number(get('maxTurns'));
  const maxTurns = Number.isFinite(maxTurnsRaw) && maxTurnsRaw >= 1 ? Math.min(200, Math.floor(maxTurnsRaw)) : DEFAULT_MAX_TURNS;
  const autoRaw = get('autoApprove');
  const autoApprove = Array.isArray(autoRaw) ? RISKS.filter((r) => autoRaw.includes(r)) : (['read'] as Risk[]);
  return {
    provider,
    model: str(get('model')),
    baseUrl: str(get('baseUrl')),
    contextWindow: contextWindowOf(get('contextWindow')),
    // A value the setting's pattern would not take (edited by hand) is the model's default.
    reasoning: parseReasoning(str(get('reasoning'))) ?? 'default',
    maxTokensParameter: MAX_TOKENS_PARAM_CHOICES.find((c) => c === get('maxTokensParameter')) ?? 'auto',
    wireApi: WIRE_API_CHOICES.find((c) => c === get('wireApi')) ?? 'auto',
    region: str(get('region')),
    project: str(get('project')),
    maxTurns,
    autoApprove,
    commandsAllow: strings(get('commands.allow')),
    commandsDeny: unionOfLevels(inspect('commands.deny')),
    commandsPassEnv: strings(get('commands.passEnv')),
    webAllowHosts: strings(get('web.allowHosts')),
    subagents: {
      maxTurns: countOf(get('subagents.maxTurns'), SUBAGENT_DEFAULTS.maxTurns, 100),
      turnBudget: countOf(get('subagents.turnBudget'), SUBAGENT_DEFAULTS.turnBudget, 1000),
    },
    mcpRisk: risksByName(get('mcp.risk')),
    sandbox: SandboxModeSchema.safeParse(get('sandbox')).data ?? 'unasked',
  };
}

/** A whole number from 1 to `max`; anything else is the default. */
function countOf(v: unknown, fallback: number, max: number): number {
  const n = Number(v);
  return Number.isFinite(n) && n >= 1 ? Math.min(max, Math.floor(n)) : fallback;
}

/** The smallest and largest windows Keel accepts (a typo of a few digits would starve or overflow every request). */
const CONTEXT_WINDOW_RANGE = { min: 2_048, max: 10_000_000 } as const;

function contextWindowOf(v: unknown): number {
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) return 0;
  return Math.min(CONTEXT_WINDOW_RANGE.max, Math.max(CONTEXT_WINDOW_RANGE.min, Math.floor(n)));
}

/** The names (`keel.…`) of user-only settings that the workspace or a folder sets. */
export function ignoredWorkspaceSettings(inspect: InspectSetting, keysInWorkspaceFiles: readonly string[] = []): string[] {
  const inFiles = new Set(keysInWorkspaceFiles);
  return USER_ONLY_SETTINGS.filter((key) => {
    const levels = inspect(key);
    return levels?.workspaceValue !== undefined || levels?.workspaceFolderValue !== undefined || inFiles.has(`keel.${key}`);
  }).map((key) => `keel.${key}`);
}

/** The notice: which settings were ignored, and why. */
export function ignoredMessage(names: readonly string[]): string {
  const one = names.length === 1;
  return (
    `Keel ignored ${names.join(', ')} from this workspace's settings. ${one ? 'It is' : 'They are'} read from your user ` +
    'settings only, so a workspace cannot change where your API key is sent or what runs without asking.'
  );
}

function effectiveValue(key: string, levels: SettingLevels | undefined): unknown {
  if (!levels) return undefined;
  if (USER_ONLY.has(key)) return levels.globalValue ?? levels.defaultValue;
  if ('value' in levels) return levels.value;
  return levels.workspaceFolderValue ?? levels.workspaceValue ?? levels.globalValue ?? levels.defaultValue;
}

function unionOfLevels(levels: SettingLevels | undefined): string[] {
  if (!levels) return [];
  const all = [levels.defaultValue, levels.globalValue, levels.workspaceValue, levels.workspaceFolderValue].flatMap(strings);
  return [...new Set(all)];
}

function risksByName(v: unknown): Record<string, Risk> {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return {};
  return Object.fromEntries(Object.entries(v).filter((e): e is [string, Risk] => (RISKS as readonly unknown[]).includes(e[1])));
}

function str(v: unknown): string {
  return typeof v === 'string' ? v.trim() : '';
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string' && s.trim() !== '').map((s) => s.trim()) : [];
}

/** keel.notifications.*: the badge on the Keel view, and notifications while Keel is not in front. */
export function readNotificationSettings(get: (key: string) => unknown): { badge: boolean; whenAway: boolean } {
  return { badge: get('notifications.badge') !== false, whenAway: get('notifications.whenAway') !== false };
}
