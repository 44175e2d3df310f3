// go_to_definition: where a name used in the code is defined — the language server's answer
// (it follows imports and types), or, headless, every definition of that name in files of the
// same language.
import type { ToolDefinition } from '../../kernel/index.js';
import { errorResult } from '../tool-result.js';
import { engineNote, hiddenNote, LineReader, locationLine, plural, visibleOnly } from './code-results.js';
import { byPosition, locationKey, lookUp } from './code-lookup.js';
import type { SymbolTarget } from './code-target.js';
import { noCodeIntel } from './no-code-intel.js';
import { nameToolFields } from './target-summary.js';

const MAX_SHOWN = 30;
const BUDGET_TOKENS = 1500;

export const goToDefinitionTool: ToolDefinition<SymbolTarget> = {
  name: 'go_to_definition',
  ...nameToolFields(BUDGET_TOKENS),
  description:
    'Where a name is defined. Give the name and, to mean one exact use, the file and line where it appears (e.g. from read_file); without them, every definition by that name.',
  async execute(input, ctx) {
    const intel = ctx.workspace.codeIntel;
    if (!intel) return noCodeIntel();
    try {
      const looked = await lookUp(ctx, intel, input, (at) => intel.definitions(at, ctx.signal), locationKey);
      if (looked.type === 'result') return looked.result;
      const { items, hidden } = await visibleOnly(ctx.workspace, looked.items.sort(byPosition));
      const summary = plural(items.length, 'definition');
      if (items.length === 0)
        return {
          ok: true,
          content: `No definition of "${input.symbol}" found in the workspace. ${engineNote(looked.answer)}${hiddenNote(hidden)}`,
          summary,
        };
      const reader = new LineReader(ctx.workspace);
      const lines: string[] = [];
      for (const l of items.slice(0, MAX_SHOWN)) lines.push(await locationLine(reader, l));
      const cut = items.length > MAX_SHOWN ? `\n[${items.length - MAX_SHOWN} more not shown: give path and line to narrow.]` : '';
      const more =
        looked.more > 0
          ? `\n[${looked.more} more definitions named "${input.symbol}" were not followed: give path and line to pick one.]`
          : '';
      return {
        ok: true,
        content: `${summary} of "${input.symbol}" ${engineNote(looked.answer)}:\n${lines.join('\n')}${cut}${more}${hiddenNote(hidden)}`,
        summary,
        data: {
          engine: looked.answer.engine,
          ...(looked.answer.fallback ? { fallback: looked.answer.fallback } : {}),
          count: items.length,
        },
      };
    } catch (err) {
      return errorResult(err, input.path);
    }
  },
};
