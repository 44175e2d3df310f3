export * from './contracts/index.js';
export { contentHash, estimateTokens, messageOf } from './text.js';
export { EventLog, MemoryLogStore } from './event-log.js';
export { applyEvent, initialState, replay, grantCovers } from './reducer.js';
export { fitToBudget, SHORTENED_OUTPUT_CHARS } from './projection.js';
export { Registry } from './registry.js';
export { Runtime, type RuntimeOptions } from './runtime.js';
export { redactSecrets, redactEvent, REDACTED } from './redact.js';
export { visibleText, hasHiddenCharacters } from './visible-text.js';
