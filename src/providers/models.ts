// The one model table: for each model Keel knows, its context window, output limit, vision,
// prompt caching and list price, together. A model id the table names exactly (a date suffix or
// `-latest` allowed) gets all of it; a newer name of a known family gets the family's limits but
// no price (the UI shows tokens only rather than a guessed cost); anything else — a local
// server's model — gets conservative limits, which the user can override (the window above all,
// which Keel cannot know for a local model).
import type { ModelCapabilities, Usage } from '../kernel/contracts/index.js';

export interface Price {
  /** US dollars per million tokens. */
  input: number;
  output: number;
  cacheRead: number;
  /** Anthropic's 5-minute cache write; OpenAI caches automatically and charges no write. */
  cacheWrite: number;
}

export interface CapabilityOverrides {
  contextWindow?: number;
  /** The output limit asked for on every request; also what the kernel budgets for. */
  maxOutputTokens?: number;
  vision?: boolean;
}

interface Limits {
  contextWindow: number;
  maxOutput: number;
  vision: boolean;
  promptCaching: boolean;
}

/** A row: an exact family id (with its price) or a pattern for names the table does not list. */
interface Row {
  match: string | RegExp;
  limits: Limits;
  price?: Price;
}

const limits = (contextWindow: number, maxOutput: number, vision = true, promptCaching = true): Limits => ({
  contextWindow,
  maxOutput,
  vision,
  promptCaching,
});
const price = (input: number, output: number, cacheRead: number, cacheWrite: number): Price => ({ input, output, cacheRead, cacheWrite });

const OPUS_4 = limits(200_000, 32_000);
const CLAUDE_4 = limits(200_000, 64_000);
const SONNET_1M = limits(1_000_000, 128_000);
const GPT_4O = limits(128_000, 16_384);
const GPT_4_1 = limits(1_047_576, 32_768);
const GPT_5 = limits(400_000, 128_000);

/** Ids are lower case, dots as dashes (`gpt-4.1` → `gpt-4-1`), without a vendor prefix. */
const MODELS: Row[] = [
  { match: 'claude-sonnet-5-5', limits: SONNET_1M, price: price(2, 10, 0.2, 2.5) },
  { match: 'claude-sonnet-5', limits: SONNET_1M, price: price(2, 10, 0.2, 2.5) },
  { match: 'claude-sonnet-4-6', limits: SONNET_1M, price: price(3, 15, 0.3, 3.75) },
  { match: 'claude-opus-4-5', limits: CLAUDE_4, price: price(5, 25, 0.5, 6.25) },
  { match: 'claude-opus-4-1', limits: OPUS_4, price: price(15, 75, 1.5, 18.75) },
  { match: 'claude-opus-4-0', limits: OPUS_4, price: price(15, 75, 1.5, 18.75) },
  { match: 'claude-opus-4', limits: OPUS_4, price: price(15, 75, 1.5, 18.75) },
  { match: 'claude-sonnet-4-5', limits: CLAUDE_4, price: price(3, 15, 0.3, 3.75) },
  { match: 'claude-sonnet-4-0', limits: CLAUDE_4, price: price(3, 15, 0.3, 3.75) },
  { match: 'claude-sonnet-4', limits: CLAUDE_4, price: price(3, 15, 0.3, 3.75) },
  { match: 'claude-3-7-sonnet', limits: CLAUDE_4, price: price(3, 15, 0.3, 3.75) },
  { match: 'claude-haiku-4-5', limits: CLAUDE_4, price: price(1, 5, 0.1, 1.25) },
  { match: 'claude-3-5-haiku', limits: limits(200_000, 8_192), price: price(0.8, 4, 0.08, 1) },
  { match: 'gpt-4o', limits: GPT_4O, price: price(2.5, 10, 1.25, 0) },
  { match: 'gpt-4o-mini', limits: GPT_4O, price: price(0.15, 0.6, 0.075, 0) },
  { match: 'gpt-4-1', limits: GPT_4_1, price: price(2, 8, 0.5, 0) },
  { match: 'gpt-4-1-mini', limits: GPT_4_1, price: price(0.4, 1.6, 0.1, 0) },
  { match: 'gpt-4-1-nano', limits: GPT_4_1, price: price(0.1, 0.4, 0.025, 0) },
  { match: 'gpt-5', limits: GPT_5, price: price(1.25, 10, 0.125, 0) },
  { match: 'gpt-5-mini', limits: GPT_5, price: price(0.25, 2, 0.025, 0) },
  { match: 'gpt-5-nano', limits: GPT_5, price: price(0.05, 0.4, 0.005, 0) },
  // Families, first match wins: a new release gets its family's limits and no price.
  { match: /^claude-opus-4(-\d{8})?$/, limits: OPUS_4 },
  { match: /claude-sonnet-(4-6|5)/, limits: SONNET_1M },
  { match: /claude-[a-z]+-([4-9]|\d{2})/, limits: CLAUDE_4 },
  { match: /claude-3-7-sonnet/, limits: CLAUDE_4 },
  { match: /claude/, limits: limits(200_000, 8_192) },
  { match: /gpt-4o/, limits: GPT_4O },
  { match: /gpt-4-1/, limits: GPT_4_1 },
  { match: /gpt-5/, limits: GPT_5 },
  { match: /^o[34]/, limits: limits(200_000, 100_000) },
];

/** Local models are usually run with a small context; the user can say otherwise. */
const UNKNOWN: Limits = limits(32_768, 8_192, false, false);

/** The output limit asked for by default: enough for large edits, kind to rate limits. */
const DEFAULT_OUTPUT_CAP = 32_000;

/** A date (`-20250929`, `-2024-08-06`) or `-latest` after the family id; nothing else. */
const SUFFIX = /^(-\d{8}|-\d{4}-\d{2}-\d{2}|-latest)?$/;

/** "anthropic/claude-sonnet-4.5" (OpenRouter) → "claude-sonnet-4-5". */
function normalise(model: string): string {
  return model.toLowerCase().replace(/^.*\//, '').replace(/\./g, '-');
}

/** The row naming this model exactly (the longest family id), else the first matching pattern. */
function rowOf(model: string): Row | undefined {
  const id = normalise(model);
  let best: Row | undefined;
  for (const row of MODELS) {
    if (typeof row.match !== 'string' || !id.startsWith(row.match) || !SUFFIX.test(id.slice(row.match.length))) continue;
    if (!best || row.match.length > (best.match as string).length) best = row;
  }
  return best ?? MODELS.find((row) => row.match instanceof RegExp && row.match.test(id));
}

export function priceOf(model: string): Price | undefined {
  return rowOf(model)?.price;
}

/**
 * What the model can do. A window given by the user (a local server's model) also bounds the
 * default output limit to a quarter of it, so a small window still leaves room for input.
 */
export function capabilitiesFor(model: string, overrides: CapabilityOverrides = {}): ModelCapabilities {
  const known = rowOf(model)?.limits ?? UNKNOWN;
  const contextWindow = overrides.contextWindow ?? known.contextWindow;
  const outputCap = overrides.contextWindow === undefined ? DEFAULT_OUTPUT_CAP : Math.max(1_024, Math.floor(contextWindow / 4));
  return {
    tools: true,
    vision: overrides.vision ?? known.vision,
    promptCaching: known.promptCaching,
    contextWindow,
    maxOutputTokens: overrides.maxOutputTokens ?? Math.min(known.maxOutput, DEFAULT_OUTPUT_CAP, outputCap),
  };
}

/** The cost of `usage` at this price, in US dollars. */
function costOf(p: Price, usage: Pick<Usage, 'inputTokens' | 'outputTokens' | 'cacheReadTokens' | 'cacheWriteTokens'>): number {
  return (
    (usage.inputTokens * p.input +
      usage.outputTokens * p.output +
      usage.cacheReadTokens * p.cacheRead +
      usage.cacheWriteTokens * p.cacheWrite) /
    1_000_000
  );
}

/** The usage with `costUsd` when the model's price is known; tokens only otherwise. */
export function withCost(model: string, usage: Usage): Usage {
  const p = priceOf(model);
  return p ? { ...usage, costUsd: costOf(p, usage) } : usage;
}

/**
 * The models the picker offers for a vendor (registry.ts): the table's exact ids with the vendor's
 * prefix, written as the vendor's API spells them. Each resolves back to its own row (a unit test
 * holds it).
 */
export function tableModels(vendor: {
  prefix: string;
  spell(id: string): string;
}): { id: string; vision: boolean; contextWindow: number }[] {
  const rows = MODELS.filter((row): row is Row & { match: string } => typeof row.match === 'string' && row.match.startsWith(vendor.prefix));
  return rows
    .filter((row) => !rows.some((other) => isAliasOf(row, other)))
    .map((row) => ({ id: vendor.spell(row.match), vision: row.limits.vision, contextWindow: row.limits.contextWindow }));
}

/**
 * A family name the table also lists with a version (`claude-opus-4` beside `claude-opus-4-1`),
 * at the same limits and price: the picker lists the versioned one only, each model once.
 */
function isAliasOf(row: Row & { match: string }, other: Row): boolean {
  if (typeof other.match !== 'string' || !/^-\d+$/.test(other.match.slice(row.match.length)) || !other.match.startsWith(row.match))
    return false;
  return JSON.stringify([row.limits, row.price]) === JSON.stringify([other.limits, other.price]);
}
