// Prices per million tokens for models whose list price we know. A model not in the table
// gets no cost at all (the UI shows tokens only) rather than a guessed one.
import type { Usage } from '../kernel/contracts/index.js';

export interface Price {
  input: number;
  output: number;
  cacheRead: number;
  /** Anthropic's 5-minute cache write; OpenAI caches automatically and charges no write. */
  cacheWrite: number;
}

const p = (input: number, output: number, cacheRead: number, cacheWrite: number): Price => ({
  input,
  output,
  cacheRead,
  cacheWrite,
});

/** Keys are model ids without a date suffix; dots are normalised to dashes before lookup. */
const PRICES: Record<string, Price> = {
  'claude-sonnet-5-5': p(2, 10, 0.2, 2.5),
  'claude-sonnet-5': p(2, 10, 0.2, 2.5),
  'claude-sonnet-4-6': p(3, 15, 0.3, 3.75),
  'claude-opus-4-5': p(5, 25, 0.5, 6.25),
  'claude-opus-4-1': p(15, 75, 1.5, 18.75),
  'claude-opus-4-0': p(15, 75, 1.5, 18.75),
  'claude-opus-4': p(15, 75, 1.5, 18.75),
  'claude-sonnet-4-5': p(3, 15, 0.3, 3.75),
  'claude-sonnet-4-0': p(3, 15, 0.3, 3.75),
  'claude-sonnet-4': p(3, 15, 0.3, 3.75),
  'claude-3-7-sonnet': p(3, 15, 0.3, 3.75),
  'claude-haiku-4-5': p(1, 5, 0.1, 1.25),
  'claude-3-5-haiku': p(0.8, 4, 0.08, 1),
  'gpt-4o': p(2.5, 10, 1.25, 0),
  'gpt-4o-mini': p(0.15, 0.6, 0.075, 0),
  'gpt-4-1': p(2, 8, 0.5, 0),
  'gpt-4-1-mini': p(0.4, 1.6, 0.1, 0),
  'gpt-4-1-nano': p(0.1, 0.4, 0.025, 0),
  'gpt-5': p(1.25, 10, 0.125, 0),
  'gpt-5-mini': p(0.25, 2, 0.025, 0),
  'gpt-5-nano': p(0.05, 0.4, 0.005, 0),
};

/** A date (`-20250929`, `-2024-08-06`) or `-latest` after the family name; nothing else. */
const SUFFIX = /^(-\d{8}|-\d{4}-\d{2}-\d{2}|-latest)?$/;

export function priceOf(model: string): Price | undefined {
  // "anthropic/claude-sonnet-4.5" (OpenRouter) → "claude-sonnet-4-5"
  const id = model.toLowerCase().replace(/^.*\//, '').replace(/\./g, '-');
  let best: string | undefined;
  for (const key of Object.keys(PRICES)) {
    if (!id.startsWith(key) || !SUFFIX.test(id.slice(key.length))) continue;
    if (!best || key.length > best.length) best = key;
  }
  return best ? PRICES[best] : undefined;
}

/** The usage with `costUsd` when the model's price is known; tokens only otherwise. */
export function withCost(model: string, usage: Usage): Usage {
  const price = priceOf(model);
  if (!price) return usage;
  const costUsd =
    (usage.inputTokens * price.input +
      usage.outputTokens * price.output +
      usage.cacheReadTokens * price.cacheRead +
      usage.cacheWriteTokens * price.cacheWrite) /
    1_000_000;
  return { ...usage, costUsd };
}
