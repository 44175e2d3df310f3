// The reasoning setting (keel.reasoning, --reasoning) and what it becomes in each API's request.
// The user names a level or a token budget once; the model table says how the model takes it
// (its ReasoningStyle): Anthropic's budgeted or adaptive extended thinking, OpenAI's
// `reasoning_effort`, DeepSeek's `thinking` switch. `default` sends nothing, so a model reasons
// (or not) as its vendor decides: Anthropic's extended thinking, which costs, stays off.

/** What the user asked for: the model's default, off, a level, or a thinking budget in tokens. */
export type ReasoningSetting = 'default' | 'off' | ReasoningLevel | number;
export type ReasoningLevel = 'low' | 'medium' | 'high';

/** How a model takes a reasoning setting (models.ts); a model without one takes none. */
export type ReasoningStyle =
  /** Extended thinking with `budget_tokens` (Claude up to the 4.5 generation). */
  | { kind: 'anthropic_budget' }
  /** Adaptive thinking with `output_config.effort` (Claude 4.6 and later reject budgets). */
  | { kind: 'anthropic_adaptive' }
  /** `reasoning_effort`, from the levels the model accepts (OpenAI's o-series and GPT-5, xAI's grok-3-mini). */
  | { kind: 'effort'; levels: readonly ReasoningLevel[] }
  /** DeepSeek: `thinking: {type}` turns it on or off, `reasoning_effort` sets how hard. */
  | { kind: 'deepseek' };

const LEVELS: readonly ReasoningLevel[] = ['low', 'medium', 'high'];

/** The thinking budget each level stands for where a model takes a budget. */
const BUDGETS: Record<ReasoningLevel, number> = { low: 4_096, medium: 12_000, high: 24_000 };

/** The smallest budget Anthropic accepts. */
export const MIN_THINKING_BUDGET = 1_024;

/** The words the setting and the flag take, for help text and error messages. */
export const REASONING_CHOICES = 'default, off, low, medium, high, or a thinking budget in tokens (at least 1024)';

/** The setting as written, or undefined when it is none of the choices. */
export function parseReasoning(value: string | undefined): ReasoningSetting | undefined {
  const v = (value ?? '').trim().toLowerCase();
  if (v === '' || v === 'default') return 'default';
  if (v === 'off' || (LEVELS as readonly string[]).includes(v)) return v as ReasoningSetting;
  if (!/^\d+$/.test(v)) return undefined;
  const tokens = Number(v);
  return tokens >= MIN_THINKING_BUDGET && Number.isSafeInteger(tokens) ? tokens : undefined;
}

/** The level a setting stands for: a budget is read as the level whose budget it reaches. */
function levelOf(setting: ReasoningLevel | number): ReasoningLevel {
  if (typeof setting !== 'number') return setting;
  return setting >= BUDGETS.high ? 'high' : setting >= BUDGETS.medium ? 'medium' : 'low';
}

/** The budget a setting stands for. */
function budgetOf(setting: ReasoningLevel | number): number {
  return typeof setting === 'number' ? setting : BUDGETS[setting];
}

/** The accepted level nearest the one asked for (grok-3-mini takes low and high only). */
function nearest(level: ReasoningLevel, levels: readonly ReasoningLevel[]): ReasoningLevel | undefined {
  if (levels.includes(level)) return level;
  const at = LEVELS.indexOf(level);
  return [...levels].sort(
    (a, b) => Math.abs(LEVELS.indexOf(a) - at) - Math.abs(LEVELS.indexOf(b) - at) || LEVELS.indexOf(b) - LEVELS.indexOf(a),
  )[0];
}

export type AnthropicThinking =
  | { type: 'budget'; budgetTokens: number }
  | { type: 'adaptive'; effort: ReasoningLevel }
  | { type: 'disabled' }
  | undefined;

/** Anthropic's thinking for this setting on a model of this style (undefined: the field is left out). */
export function anthropicThinking(style: ReasoningStyle | undefined, setting: ReasoningSetting): AnthropicThinking {
  if (setting === 'default' || !style) return undefined;
  if (style.kind === 'anthropic_budget') return setting === 'off' ? undefined : { type: 'budget', budgetTokens: budgetOf(setting) };
  if (style.kind === 'anthropic_adaptive') return setting === 'off' ? { type: 'disabled' } : { type: 'adaptive', effort: levelOf(setting) };
  return undefined;
}

/** The chat-completions fields for this setting on a model of this style. */
export function chatReasoningFields(style: ReasoningStyle | undefined, setting: ReasoningSetting): Record<string, unknown> {
  if (setting === 'default' || !style) return {};
  if (style.kind === 'deepseek')
    return setting === 'off' ? { thinking: { type: 'disabled' } } : { thinking: { type: 'enabled' }, reasoning_effort: levelOf(setting) };
  if (style.kind !== 'effort' || setting === 'off') return {};
  const effort = nearest(levelOf(setting), style.levels);
  return effort ? { reasoning_effort: effort } : {};
}
