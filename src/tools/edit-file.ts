// edit_file: search/replace blocks applied all-or-nothing, refused when the file is stale.
// The observation carries the unified diff; `data` carries what the VS Code diff editor needs.
import { z } from 'zod';
import { contentHash, type EditPreview, REDACTED, type ToolDefinition } from '../kernel/index.js';
import { planEdit, type EditPlan } from './edit/plan-edit.js';
import { PreviewPlans } from './edit/preview-plans.js';
import { markerRefusal } from './edit/redaction-marker.js';
import { isResult, precheckChange, snapshot, staleCheck } from './file-access.js';
import { changeData } from './change-data.js';
import { errorResult, failure, fitLines } from './tool-result.js';
import { PROBLEMS_NOTE, problemsAround, withReport } from './problems/problems-around.js';

const EditBlockSchema = z.object({
  search: z.string().describe('Exact current text to replace (copy it from read_file, without the line numbers).'),
  replace: z.string().describe('The new text.'),
});

const EditFileInputSchema = z.object({
  path: z.string().min(1).describe('File path, relative to the workspace root.'),
  edits: z.array(EditBlockSchema).min(1).describe('Blocks, in any order; each search must match exactly one place.'),
});
export type EditFileInput = z.infer<typeof EditFileInputSchema>;

const BUDGET_TOKENS = 4000;

const plans = new PreviewPlans<Extract<EditPlan, { ok: true }>>();

export const editFileTool: ToolDefinition<EditFileInput> = {
  name: 'edit_file',
  kind: 'edit',
  description:
    'Change an existing file with search/replace blocks. Either all blocks apply or none does. ' +
    'Read the file first: an edit of a file changed since your last read is refused as stale.' +
    PROBLEMS_NOTE,
  input: EditFileInputSchema,
  risk: 'write',
  readOnly: false,
  concurrencySafe: false,
  outputBudgetTokens: BUDGET_TOKENS,
  isVisible: (c) => c.trusted,
  summarize: (i) => `${i.path} (${i.edits.length} block${i.edits.length === 1 ? '' : 's'})`,
  paths: (i) => [i.path],
  // The precheck's read is the one the diff's preview is planned on (offered to the host).
  precheck: (input, ctx) =>
    precheckChange(
      input.path,
      ctx,
      BUDGET_TOKENS * 4,
      missingFile,
      (snap) => preview(input, snap.bytes, snap.rel),
      (message, rel) => notApplied(message, rel, input),
    ),
  preview,
  async execute(input, ctx) {
    try {
      const snap = await snapshot(ctx.workspace, input.path);
      if (isResult(snap)) return snap;
      if (!snap.bytes) return missingFile(snap.rel);
      const stale = staleCheck(snap, ctx, BUDGET_TOKENS * 4);
      if (stale) return stale;
      // The diff the user approved, when the file is still what it was planned on; else planned now.
      const plan = plans.reuse(ctx.previewed, snap) ?? planEdit(snap.bytes, input.edits, snap.rel);
      if (!plan.ok) return notApplied(plan.message, snap.rel, input);
      const refused = markerRefusal(snap.rel, plan.before, plan.newText, ctx.secrets);
      if (refused) return refused;
      const checked = await problemsAround(ctx, [snap.rel], () => ctx.workspace.writeFile(snap.rel, plan.newBytes));
      const hash = contentHash(plan.newBytes);
      const stats = `+${plan.added} −${plan.removed}`;
      const forgiven = plan.tolerantBlocks
        ? ` (${plan.tolerantBlocks} block${plan.tolerantBlocks === 1 ? '' : 's'} matched after forgiving whitespace)`
        : '';
      return {
        ok: true,
        content: withReport(checked.report, BUDGET_TOKENS * 4, (chars) =>
          fitLines(`Edited ${snap.rel}: ${stats} lines${forgiven}.\n${plan.diff}`, chars, 'diff lines'),
        ),
        summary: `${snap.rel} ${stats}`,
        data: changeData(snap.rel, plan.diff, plan.before, () => plan.newText, plan.newBytes.length),
        fileVersions: { [snap.rel]: hash },
        facts: { edit: { path: snap.rel, hash, added: plan.added, removed: plan.removed } },
      };
    } catch (err) {
      return errorResult(err, input.path);
    }
  },
};

/** The proposed content from the raw input and the file's bytes: the plan execute writes if the file stays the same. */
function preview(raw: unknown, current: Uint8Array | undefined, rel?: string): EditPreview {
  const input = EditFileInputSchema.safeParse(raw);
  if (!input.success) return { ok: false, message: 'the edit is malformed.' };
  const path = rel ?? input.data.path;
  if (!current) return { ok: false, message: `${path} does not exist.` };
  const plan = planEdit(current, input.data.edits, path);
  return plan.ok ? plans.preview(path, plan) : { ok: false, message: plan.message };
}

/** An edit whose blocks do not apply to the file as it is: the same answer before approval and at run time. */
function notApplied(message: string, rel: string, input: EditFileInput) {
  return failure('invalid_input', message + markerHint(input), { summary: `${rel}: edit did not apply` });
}

/** Why a search holding the redaction marker never matches: the file has the real value there. */
function markerHint(input: EditFileInput): string {
  if (!input.edits.some((e) => e.search.includes(REDACTED))) return '';
  return ` A search holds ${REDACTED}, which stands for a credential hidden from you: the file has the real value there, so leave those lines out of the blocks.`;
}

function missingFile(rel: string) {
  return failure('not_found', `${rel} does not exist. To create it, use write_file.`);
}
