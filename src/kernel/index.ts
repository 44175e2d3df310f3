export * from './contracts/index.js';
export { contentHash, estimateTokens, shortenMiddle, messageOf, showInvisibles } from './text.js';
export { EventLog, MemoryLogStore, type EventListener } from './event-log.js';
export { applyEvent, initialState, replay, grantFor, grantCovers } from './reducer.js';
export {
  projectContext,
  toModelMessages,
  fitToBudget,
  splitHistory,
  SHORTENED_OUTPUT_CHARS,
  type ProjectionOptions,
} from './projection.js';
export { fixedTokens, messageTokens, requestTokens, requestBreakdown, type RequestBreakdown } from './context/tokens.js';
export { HIGH_WATER, LOW_WATER, planFold, type FoldPlan } from './context/fold-plan.js';
export { NOTE_PROMPT, NOTE_MAX_OUTPUT_TOKENS, fallbackNote } from './context/fold-note.js';
export { renderContextBlock, renderLedger } from './context/context-block.js';
export { emptyLedger, priorReadOf } from './context/ledger.js';
export { Registry, toolSchema, type ProviderFactory } from './registry.js';
export { defaultPolicy } from './policy.js';
export { decide, REPEATED_FAILURE_LIMIT } from './loop.js';
export { Runtime, type RuntimeOptions, type UserInput } from './runtime.js';
export { DEFAULT_SYSTEM_PROMPT } from './system-prompt.js';
export { OutputQueue } from './output-queue.js';
