// Keel's settings, read from the `keel.*` configuration into one validated value. Pure: the
// host passes a getter (WorkspaceConfiguration.get), so defaults and clamping are unit-tested.
import type { Risk } from '../kernel/contracts/index.js';
import type { ProviderName } from './api-key.js';

export interface KeelSettings {
  provider: ProviderName;
  /** Empty: the provider's default model. */
  model: string;
  /** Empty: the provider's official endpoint. */
  baseUrl: string;
  /** The model's context window in tokens; 0: the window Keel knows for the model. */
  contextWindow: number;
  maxTurns: number;
  autoApprove: Risk[];
  commandsAllow: string[];
  commandsDeny: string[];
}

export const DEFAULT_MAX_TURNS = 25;
const RISKS: readonly Risk[] = ['read', 'write', 'execute', 'network'];

export function readSettings(get: (key: string) => unknown): KeelSettings {
  const provider = get('provider') === 'openai' ? 'openai' : 'anthropic';
  const maxTurnsRaw = Number(get('maxTurns'));
  const maxTurns = Number.isFinite(maxTurnsRaw) && maxTurnsRaw >= 1 ? Math.min(200, Math.floor(maxTurnsRaw)) : DEFAULT_MAX_TURNS;
  const autoRaw = get('autoApprove');
  const autoApprove = Array.isArray(autoRaw) ? RISKS.filter((r) => autoRaw.includes(r)) : (['read'] as Risk[]);
  return {
    provider,
    model: str(get('model')),
    baseUrl: str(get('baseUrl')),
    contextWindow: contextWindowOf(get('contextWindow')),
    maxTurns,
    autoApprove,
    commandsAllow: strings(get('commands.allow')),
    commandsDeny: strings(get('commands.deny')),
  };
}

/** The smallest and largest windows Keel accepts (a typo of a few digits would starve or overflow every request). */
export const CONTEXT_WINDOW_RANGE = { min: 2_048, max: 10_000_000 } as const;

function contextWindowOf(v: unknown): number {
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) return 0;
  return Math.min(CONTEXT_WINDOW_RANGE.max, Math.max(CONTEXT_WINDOW_RANGE.min, Math.floor(n)));
}

function str(v: unknown): string {
  return typeof v === 'string' ? v.trim() : '';
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string' && s.trim() !== '').map((s) => s.trim()) : [];
}
