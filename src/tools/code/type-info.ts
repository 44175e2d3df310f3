// type_info: what the editor shows on hover — a name's type, signature and documentation, from
// the language server; headless, the first line of each definition of the name (which often
// carries its parameters and types), said to be no inferred type.
import type { ToolDefinition } from '../../kernel/index.js';
import { errorResult } from '../tool-result.js';
import { engineNote } from './code-results.js';
import { lookUp } from './code-lookup.js';
import type { SymbolTarget } from './code-target.js';
import { noCodeIntel } from './no-code-intel.js';
import { nameToolFields } from './target-summary.js';

const BUDGET_TOKENS = 1200;
const MAX_CHARS = BUDGET_TOKENS * 4 - 300;

export const typeInfoTool: ToolDefinition<SymbolTarget> = {
  name: 'type_info',
  ...nameToolFields(BUDGET_TOKENS),
  description:
    "A name's type, signature and documentation as the editor shows them on hover. Give the name and the file and line where it appears for that exact use.",
  async execute(input, ctx) {
    const intel = ctx.workspace.codeIntel;
    if (!intel) return noCodeIntel();
    try {
      const looked = await lookUp(
        ctx,
        intel,
        input,
        (at) => intel.hover(at, ctx.signal),
        (text) => text,
      );
      if (looked.type === 'result') return looked.result;
      const text = looked.items.join('\n\n').trim();
      if (text === '')
        return { ok: true, content: `No type information for "${input.symbol}". ${engineNote(looked.answer)}`, summary: 'none' };
      const at = looked.positions[0]!;
      const body = text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS)}\n[… cut]` : text;
      return {
        ok: true,
        content: `"${input.symbol}" at ${at.path}:${at.line}:${at.column} ${engineNote(looked.answer)}:\n${body}`,
        summary: `${input.symbol}`,
        data: { engine: looked.answer.engine, ...(looked.answer.fallback ? { fallback: looked.answer.fallback } : {}) },
      };
    } catch (err) {
      return errorResult(err, input.path);
    }
  },
};
