// The position-based questions (definitions, references, hover) asked for every position a
// target resolves to, answers merged without duplicates, in path and line order.
import type { CodeIntel, CodeIntelAnswer, CodeLocation, ToolContext, ToolResult } from '../../kernel/index.js';
import { failure } from '../tool-result.js';
import { resolveTarget, type SymbolTarget } from './code-target.js';

export interface Looked<T> {
  type: 'answer';
  items: T[];
  /** The first answer's engine and fallback (every answer of one call comes from one host). */
  answer: Pick<CodeIntelAnswer<T>, 'engine' | 'fallback'>;
  /** The positions asked about. */
  positions: CodeLocation[];
  /** Same-named definitions not asked about. */
  more: number;
}

export async function lookUp<T>(
  ctx: ToolContext,
  intel: CodeIntel,
  target: SymbolTarget,
  ask: (at: CodeLocation) => Promise<CodeIntelAnswer<T>>,
  key: (item: T) => string,
): Promise<Looked<T> | { type: 'result'; result: ToolResult }> {
  const resolved = await resolveTarget(ctx.workspace, intel, target, ctx.signal);
  if (resolved.type === 'result') return resolved;
  const seen = new Set<string>();
  const items: T[] = [];
  let first: CodeIntelAnswer<T> | undefined;
  for (const at of resolved.positions) {
    const a = await ask(at);
    if (a.unsupported) return { type: 'result', result: unsupported(a.unsupported) };
    first ??= a;
    for (const item of a.items) {
      const k = key(item);
      if (!seen.has(k)) [seen.add(k), items.push(item)];
    }
  }
  return { type: 'answer', items, answer: first ?? { engine: 'tree-sitter' }, positions: resolved.positions, more: resolved.more };
}

export const locationKey = (l: CodeLocation) => `${l.path}:${l.line}:${l.column}`;

export function byPosition(a: CodeLocation, b: CodeLocation): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line || a.column - b.column;
}

function unsupported({ path, reason }: { path: string; reason?: string }): ToolResult {
  if (reason)
    return failure('invalid_input', `${path} was not parsed: it is ${reason}. Use search_files and read_file.`, { retryable: false });
  return failure(
    'invalid_input',
    `No language server or grammar reads ${path} (supported without a language server: TypeScript, JavaScript, Python, Go, Rust, Java). Use search_files and read_file.`,
    { retryable: false },
  );
}
