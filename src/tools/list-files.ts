// list_files: folders and files, breadth first, honouring .gitignore and .keelignore, capped
// with a note of how much was left out. Files that may hold secrets (.env…, the ones read_file
// asks about) are left out, as search_files leaves them out.
import { z } from 'zod';
import type { ToolDefinition } from '../kernel/index.js';
import { walk } from './ignore/walk.js';
import { isSecretFile } from './policy/protected-paths.js';
import { errorResult, failure } from './tool-result.js';

const ListFilesInputSchema = z.object({
  path: z.string().optional().describe('Folder relative to the workspace root; the root when absent.'),
  recursive: z.boolean().optional().describe('List everything below the folder, not just its entries.'),
});
export type ListFilesInput = z.infer<typeof ListFilesInputSchema>;

const MAX_SHOWN = 400;
/** Past this many entries we stop counting too, so a huge tree cannot stall the tool. */
const MAX_COUNTED = 20_000;

export const listFilesTool: ToolDefinition<ListFilesInput> = {
  name: 'list_files',
  kind: 'read',
  description:
    'List files and folders (folders end with /). Ignored files (.gitignore, .keelignore), .git and files that may hold secrets (.env…) are left out.',
  input: ListFilesInputSchema,
  risk: 'read',
  readOnly: true,
  concurrencySafe: true,
  outputBudgetTokens: 3000,
  summarize: (i) => `${i.path || '.'}${i.recursive ? ' (recursive)' : ''}`,
  paths: (i) => [i.path || '.'],
  async execute(input, ctx) {
    try {
      const rel = await ctx.workspace.resolve(input.path || '.');
      const st = await ctx.workspace.stat(rel);
      if (!st) return failure('not_found', `${input.path} does not exist.`);
      if (st.type !== 'directory') return failure('invalid_input', `${rel} is a file; use read_file to read it.`);
      const shown: string[] = [];
      let count = 0;
      for await (const e of walk(ctx.workspace, rel, { recursive: !!input.recursive, signal: ctx.signal })) {
        if (e.type !== 'directory' && isSecretFile(e.path)) continue;
        if (++count <= MAX_SHOWN) shown.push(e.type === 'directory' ? `${e.path}/` : e.path);
        if (count >= MAX_COUNTED) break;
      }
      shown.sort();
      const where = rel === '' ? 'the workspace root' : rel;
      if (count === 0) return { ok: true, content: `${where} is empty (or everything in it is ignored).`, summary: '0 entries' };
      const left = count - shown.length;
      const note =
        left > 0
          ? `\n[${count >= MAX_COUNTED ? 'more than ' : ''}${left} more entries not shown. List a subfolder, or use search_files.]`
          : '';
      return { ok: true, content: shown.join('\n') + note, summary: `${count >= MAX_COUNTED ? `${MAX_COUNTED}+` : count} entries` };
    } catch (err) {
      return errorResult(err, input.path);
    }
  },
};
