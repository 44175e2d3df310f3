// What the tools aimed at one name (go_to_definition, type_info) share: their input, how they are
// classed and shown, and the one-line summary of a call — the name, and where when given.
import type { ToolDefinition } from '../../kernel/index.js';
import { SymbolTargetSchema, type SymbolTarget } from './code-target.js';

export function targetSummary(t: SymbolTarget): string {
  return t.path ? `${t.symbol} at ${t.path}${t.line ? `:${t.line}` : ''}` : t.symbol;
}

type NameToolFields = Pick<
  ToolDefinition<SymbolTarget>,
  'kind' | 'input' | 'risk' | 'readOnly' | 'concurrencySafe' | 'outputBudgetTokens' | 'isVisible' | 'summarize' | 'paths'
>;

/** A read of the language intelligence about one name, offered only where code intelligence is. */
export function nameToolFields(outputBudgetTokens: number): NameToolFields {
  return {
    kind: 'read',
    input: SymbolTargetSchema,
    risk: 'read',
    readOnly: true,
    concurrencySafe: true,
    outputBudgetTokens,
    isVisible: (c) => c.hasCodeIntel === true,
    summarize: targetSummary,
    paths: (i) => [i.path ?? '.'],
  };
}
