// What each known model can do. Unknown models (a local server's, a new release) get
// conservative defaults that the user can override in the factory options.
import type { ModelCapabilities } from '../kernel/contracts/index.js';

export interface CapabilityOverrides {
  contextWindow?: number;
  /** The output limit asked for on every request; also what the kernel budgets for. */
  maxOutputTokens?: number;
  vision?: boolean;
}

interface Known {
  pattern: RegExp;
  contextWindow: number;
  maxOutput: number;
  vision: boolean;
  promptCaching: boolean;
}

const k = (pattern: RegExp, contextWindow: number, maxOutput: number, vision = true, promptCaching = true): Known => ({
  pattern,
  contextWindow,
  maxOutput,
  vision,
  promptCaching,
});

/** First match wins: more specific patterns come first. */
const KNOWN: Known[] = [
  k(/claude-opus-4-[01]\b|claude-opus-4-\d{8}|claude-opus-4$/, 200_000, 32_000),
  // A 1M-token window from Sonnet 4.6 on.
  k(/claude-sonnet-(4-6|5)/, 1_000_000, 128_000),
  // Claude 4 and later families (names the table does not list yet included).
  k(/claude-[a-z]+-([4-9]|\d{2})/, 200_000, 64_000),
  k(/claude-3-7-sonnet/, 200_000, 64_000),
  k(/claude-3-5-(haiku|sonnet)/, 200_000, 8_192),
  k(/claude/, 200_000, 8_192),
  k(/gpt-4o/, 128_000, 16_384),
  k(/gpt-4-1/, 1_047_576, 32_768),
  k(/gpt-5/, 400_000, 128_000),
  k(/^o[34]/, 200_000, 100_000),
];

/** Local models are usually run with a small context; the user can say otherwise. */
const UNKNOWN = k(/$^/, 32_768, 8_192, false, false);

/** The output limit we ask for by default: enough for large edits, kind to rate limits. */
const DEFAULT_OUTPUT_CAP = 32_000;

export function capabilitiesFor(model: string, overrides: CapabilityOverrides = {}): ModelCapabilities {
  const id = model.toLowerCase().replace(/^.*\//, '').replace(/\./g, '-');
  const known = KNOWN.find((m) => m.pattern.test(id)) ?? UNKNOWN;
  return {
    tools: true,
    vision: overrides.vision ?? known.vision,
    promptCaching: known.promptCaching,
    contextWindow: overrides.contextWindow ?? known.contextWindow,
    maxOutputTokens: overrides.maxOutputTokens ?? Math.min(known.maxOutput, DEFAULT_OUTPUT_CAP),
  };
}
