// The one-line summary of a call aimed at a name: the name, and where when given.
import type { SymbolTarget } from './code-target.js';

export function targetSummary(t: SymbolTarget): string {
  return t.path ? `${t.symbol} at ${t.path}${t.line ? `:${t.line}` : ''}` : t.symbol;
}
