// The one model table: for each model Keel knows, its context window, output limit, vision,
// prompt caching and list price, together. A model id the table names exactly (a date suffix or
// `-latest` allowed) gets all of it; a newer name of a known family gets the family's limits but
// no price (the UI shows tokens only rather than a guessed cost); anything else — a local
// server's model — gets conservative limits, which the user can override (the window above all,
// which Keel cannot know for a local model).
import type { ModelCapabilities, Usage } from '../kernel/contracts/index.js';
import { cloudModel, cloudPriceFactor } from './cloud-models.js';
import type { ReasoningLevel, ReasoningStyle } from './reasoning.js';

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

/**
 * How a request to the model must be written, as data the adapters read (never a branch on a
 * model's name in an adapter).
 */
/** The chat-completions field the output limit goes in. */
export type MaxTokensParam = 'max_tokens' | 'max_completion_tokens';

/** What keel.maxTokensParameter and --max-tokens-param take: `auto` leaves it to the table and the server. */
export const MAX_TOKENS_PARAM_CHOICES = ['auto', 'max_tokens', 'max_completion_tokens'] as const;
export type MaxTokensParamChoice = (typeof MAX_TOKENS_PARAM_CHOICES)[number];

export interface ModelRules {
  /**
   * Chat completions: the field the output limit goes in. OpenAI's reasoning models refuse
   * `max_tokens`; many OpenAI-compatible servers know only it. Absent: `max_completion_tokens`
   * on OpenAI's own API, `max_tokens` at a base URL.
   */
  maxTokensParam?: MaxTokensParam;
  /** How the model takes the reasoning setting; absent: it takes none (and nothing is sent). */
  reasoning?: ReasoningStyle;
  /** `responses`: the model is served by OpenAI's Responses API only (responses.ts); absent: chat completions. */
  wireApi?: 'responses';
}

/** A row: an exact family id (with its price) or a pattern for names the table does not list. */
interface Row {
  match: string | RegExp;
  limits: Limits;
  price?: Price;
  rules?: ModelRules;
}

const limits = (contextWindow: number, maxOutput: number, vision = true, promptCaching = true): Limits => ({
  contextWindow,
  maxOutput,
  vision,
  promptCaching,
});
const price = (input: number, output: number, cacheRead: number, cacheWrite: number): Price => ({ input, output, cacheRead, cacheWrite });

const BUDGET_THINKING: ModelRules = { reasoning: { kind: 'anthropic_budget' } };
const ADAPTIVE_THINKING: ModelRules = { reasoning: { kind: 'anthropic_adaptive' } };
const ALL_LEVELS: readonly ReasoningLevel[] = ['low', 'medium', 'high'];
/** OpenAI's reasoning models: `max_completion_tokens` only (Azure and gateways too), and `reasoning_effort`. */
const OPENAI_REASONING: ModelRules = { maxTokensParam: 'max_completion_tokens', reasoning: { kind: 'effort', levels: ALL_LEVELS } };
/** OpenAI's models served by the Responses API only (the Codex family, the pro models). */
const OPENAI_RESPONSES: ModelRules = { ...OPENAI_REASONING, wireApi: 'responses' };
/** gpt-5-pro reasons at `high` only: any level asked for is sent as it. */
const GPT_5_PRO: ModelRules = { ...OPENAI_RESPONSES, reasoning: { kind: 'effort', levels: ['high'] } };
const DEEPSEEK: ModelRules = { maxTokensParam: 'max_tokens', reasoning: { kind: 'deepseek' } };
const GROK_MINI: ModelRules = { reasoning: { kind: 'effort', levels: ['low', 'high'] } };

const OPUS_4 = limits(200_000, 32_000);
const CLAUDE_4 = limits(200_000, 64_000);
const SONNET_1M = limits(1_000_000, 128_000);
const GPT_4O = limits(128_000, 16_384);
const GPT_4_1 = limits(1_047_576, 32_768);
const GPT_5 = limits(400_000, 128_000);
const O_SERIES = limits(200_000, 100_000);
const DEEPSEEK_LIMITS = limits(128_000, 32_000, false, true);

/** Ids are lower case, dots as dashes (`gpt-4.1` → `gpt-4-1`), without a vendor prefix. */
const MODELS: Row[] = [
  { match: 'claude-sonnet-5-5', limits: SONNET_1M, price: price(2, 10, 0.2, 2.5), rules: ADAPTIVE_THINKING },
  { match: 'claude-sonnet-5', limits: SONNET_1M, price: price(2, 10, 0.2, 2.5), rules: ADAPTIVE_THINKING },
  { match: 'claude-sonnet-4-6', limits: SONNET_1M, price: price(3, 15, 0.3, 3.75), rules: ADAPTIVE_THINKING },
  { match: 'claude-opus-4-5', limits: CLAUDE_4, price: price(5, 25, 0.5, 6.25), rules: BUDGET_THINKING },
  { match: 'claude-opus-4-1', limits: OPUS_4, price: price(15, 75, 1.5, 18.75), rules: BUDGET_THINKING },
  { match: 'claude-opus-4-0', limits: OPUS_4, price: price(15, 75, 1.5, 18.75), rules: BUDGET_THINKING },
  { match: 'claude-opus-4', limits: OPUS_4, price: price(15, 75, 1.5, 18.75), rules: BUDGET_THINKING },
  { match: 'claude-sonnet-4-5', limits: CLAUDE_4, price: price(3, 15, 0.3, 3.75), rules: BUDGET_THINKING },
  { match: 'claude-sonnet-4-0', limits: CLAUDE_4, price: price(3, 15, 0.3, 3.75), rules: BUDGET_THINKING },
  { match: 'claude-sonnet-4', limits: CLAUDE_4, price: price(3, 15, 0.3, 3.75), rules: BUDGET_THINKING },
  { match: 'claude-3-7-sonnet', limits: CLAUDE_4, price: price(3, 15, 0.3, 3.75), rules: BUDGET_THINKING },
  { match: 'claude-haiku-4-5', limits: CLAUDE_4, price: price(1, 5, 0.1, 1.25), rules: BUDGET_THINKING },
  { match: 'claude-3-5-haiku', limits: limits(200_000, 8_192), price: price(0.8, 4, 0.08, 1) },
  { match: 'gpt-4o', limits: GPT_4O, price: price(2.5, 10, 1.25, 0) },
  { match: 'gpt-4o-mini', limits: GPT_4O, price: price(0.15, 0.6, 0.075, 0) },
  { match: 'gpt-4-1', limits: GPT_4_1, price: price(2, 8, 0.5, 0) },
  { match: 'gpt-4-1-mini', limits: GPT_4_1, price: price(0.4, 1.6, 0.1, 0) },
  { match: 'gpt-4-1-nano', limits: GPT_4_1, price: price(0.1, 0.4, 0.025, 0) },
  { match: 'gpt-5', limits: GPT_5, price: price(1.25, 10, 0.125, 0), rules: OPENAI_REASONING },
  { match: 'gpt-5-mini', limits: GPT_5, price: price(0.25, 2, 0.025, 0), rules: OPENAI_REASONING },
  { match: 'gpt-5-nano', limits: GPT_5, price: price(0.05, 0.4, 0.005, 0), rules: OPENAI_REASONING },
  { match: 'gpt-5-codex', limits: GPT_5, price: price(1.25, 10, 0.125, 0), rules: OPENAI_RESPONSES },
  { match: 'gpt-5-1-codex', limits: GPT_5, price: price(1.25, 10, 0.125, 0), rules: OPENAI_RESPONSES },
  { match: 'gpt-5-1-codex-mini', limits: GPT_5, price: price(0.25, 2, 0.025, 0), rules: OPENAI_RESPONSES },
  // gpt-5-pro has no cached-input discount: a cache read costs what input does.
  { match: 'gpt-5-pro', limits: limits(400_000, 272_000), price: price(15, 120, 15, 0), rules: GPT_5_PRO },
  { match: 'o3', limits: O_SERIES, price: price(2, 8, 0.5, 0), rules: OPENAI_REASONING },
  { match: 'o4-mini', limits: O_SERIES, price: price(1.1, 4.4, 0.275, 0), rules: OPENAI_REASONING },
  // OpenAI-compatible vendors behind a base URL: their list prices, cache hits as cache reads.
  { match: 'deepseek-chat', limits: DEEPSEEK_LIMITS, price: price(0.28, 0.42, 0.028, 0), rules: DEEPSEEK },
  { match: 'deepseek-reasoner', limits: DEEPSEEK_LIMITS, price: price(0.28, 0.42, 0.028, 0), rules: DEEPSEEK },
  { match: 'grok-4', limits: limits(256_000, 32_000, true, true), price: price(3, 15, 0.75, 0) },
  { match: 'grok-3-mini', limits: limits(131_072, 32_000, false, true), price: price(0.3, 0.5, 0.075, 0), rules: GROK_MINI },
  // Families, first match wins: a new release gets its family's limits and no price.
  { match: /^claude-opus-4(-\d{8})?$/, limits: OPUS_4, rules: BUDGET_THINKING },
  { match: /claude-sonnet-(4-6|5)/, limits: SONNET_1M, rules: ADAPTIVE_THINKING },
  // Claude 4.6 and later take adaptive thinking only; the 4 generation before them, budgets.
  { match: /claude-[a-z]+-(4-[6-9]|[5-9](-|$)|\d{2})/, limits: CLAUDE_4, rules: ADAPTIVE_THINKING },
  { match: /claude-[a-z]+-4/, limits: CLAUDE_4, rules: BUDGET_THINKING },
  { match: /claude-3-7-sonnet/, limits: CLAUDE_4, rules: BUDGET_THINKING },
  { match: /claude/, limits: limits(200_000, 8_192) },
  { match: /gpt-4o/, limits: GPT_4O },
  { match: /gpt-4-1/, limits: GPT_4_1 },
  { match: /gpt-5.*-(codex|pro)(-|$)/, limits: GPT_5, rules: OPENAI_RESPONSES },
  { match: /gpt-5/, limits: GPT_5, rules: OPENAI_REASONING },
  { match: /^o[1-9]/, limits: O_SERIES, rules: OPENAI_REASONING },
  { match: /deepseek/, limits: DEEPSEEK_LIMITS, rules: DEEPSEEK },
  { match: /grok-3-mini/, limits: limits(131_072, 32_000, false, true), rules: GROK_MINI },
  { match: /grok/, limits: limits(256_000, 32_000, true, true) },
  { match: /kimi-k2|moonshot/, limits: limits(262_144, 32_000, false, true) },
  { match: /magistral|mistral|devstral|codestral/, limits: limits(128_000, 32_000, false, false) },
];

/** Local models are usually run with a small context; the user can say otherwise. */
const UNKNOWN: Limits = limits(32_768, 8_192, false, false);

/** The output limit asked for by default: enough for large edits, kind to rate limits. */
const DEFAULT_OUTPUT_CAP = 32_000;

/** A date (`-20250929`, `-2024-08-06`) or `-latest` after the family id; nothing else. */
const SUFFIX = /^(-\d{8}|-\d{4}-\d{2}-\d{2}|-latest)?$/;

/** The id without a vendor prefix or an ARN's path ("anthropic/claude-sonnet-4.5", OpenRouter's). */
function bareId(model: string): string {
  return model.toLowerCase().replace(/^.*\//, '');
}

/**
 * "anthropic/claude-sonnet-4.5" (OpenRouter) → "claude-sonnet-4-5"; a Bedrock or Vertex id
 * (cloud-models.ts) → its family's id.
 */
function normalise(model: string): string {
  const id = bareId(model);
  return (cloudModel(id)?.family ?? id).replace(/\./g, '-');
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

/** The list price; a cloud id's is its endpoint's (none when the id does not say which it is). */
export function priceOf(model: string): Price | undefined {
  const list = rowOf(model)?.price;
  const cloud = cloudModel(bareId(model));
  if (!list || !cloud) return list;
  const factor = cloudPriceFactor(cloud);
  if (factor === undefined) return undefined;
  const scale = (n: number) => Math.round(n * factor * 1e6) / 1e6;
  return { input: scale(list.input), output: scale(list.output), cacheRead: scale(list.cacheRead), cacheWrite: scale(list.cacheWrite) };
}

/** Every model the table names exactly (not a family pattern): each must carry its list price. */
export function exactModelIds(): string[] {
  return MODELS.flatMap((row) => (typeof row.match === 'string' ? [row.match] : []));
}

/** How requests to this model must be written (none known: the adapters' defaults). */
export function rulesOf(model: string): ModelRules {
  return rowOf(model)?.rules ?? {};
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
