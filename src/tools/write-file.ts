// write_file: create a file, or overwrite one that was read in this task (an unread or changed
// existing file is refused as stale). The observation carries the diff.
import { z } from 'zod';
import { contentHash, type EditPreview, type ToolDefinition } from '../kernel/index.js';
import { changeData } from './change-data.js';
import { planWrite, type WritePlan } from './edit/plan-write.js';
import { PreviewPlans } from './edit/preview-plans.js';
import { markerRefusal } from './edit/redaction-marker.js';
import { isResult, precheckChange, snapshot, staleCheck } from './file-access.js';
import { errorResult, failure, fitLines } from './tool-result.js';
import { PROBLEMS_NOTE, problemsAround, withReport } from './problems/problems-around.js';

const WriteFileInputSchema = z.object({
  path: z.string().min(1).describe('File path, relative to the workspace root. Missing folders are created.'),
  content: z.string().describe('The whole new content of the file.'),
});
export type WriteFileInput = z.infer<typeof WriteFileInputSchema>;

const BUDGET_TOKENS = 3000;

const plans = new PreviewPlans<Extract<WritePlan, { ok: true }>>();

export const writeFileTool: ToolDefinition<WriteFileInput> = {
  name: 'write_file',
  kind: 'edit',
  description:
    'Create a file, or replace the whole content of a file you have read in this task. ' +
    'For changes to part of a file, prefer edit_file.' +
    PROBLEMS_NOTE,
  input: WriteFileInputSchema,
  risk: 'write',
  readOnly: false,
  concurrencySafe: false,
  outputBudgetTokens: BUDGET_TOKENS,
  isVisible: (c) => c.trusted,
  summarize: (i) => i.path,
  paths: (i) => [i.path],
  // The precheck's read is the one the diff's preview is planned on (offered to the host).
  precheck: (input, ctx) => precheckChange(input.path, ctx, BUDGET_TOKENS * 4, undefined, (snap) => preview(input, snap.bytes, snap.rel)),
  preview,
  async execute(input, ctx) {
    try {
      const snap = await snapshot(ctx.workspace, input.path);
      if (isResult(snap)) return snap;
      const stale = staleCheck(snap, ctx, BUDGET_TOKENS * 4);
      if (stale) return stale;
      // The diff the user approved, when the file is still what it was planned on; else planned now.
      const plan = plans.reuse(ctx.previewed, snap) ?? planWrite(snap.bytes, input.content, snap.rel);
      if (!plan.ok) return failure('invalid_input', plan.message, { retryable: false });
      const refused = markerRefusal(snap.rel, plan.before, plan.newText, ctx.secrets);
      if (refused) return refused;
      const fileVersions = { [snap.rel]: contentHash(plan.newBytes) };
      if (!plan.created && plan.diff === '' && sameBytes(snap.bytes!, plan.newBytes)) {
        return {
          ok: true,
          content: `${snap.rel} already has this content; nothing was written.`,
          summary: `${snap.rel} unchanged`,
          fileVersions,
        };
      }
      const checked = await problemsAround(ctx, [snap.rel], () => ctx.workspace.writeFile(snap.rel, plan.newBytes));
      const what = plan.created ? `Created ${snap.rel} (${plan.added} lines)` : `Wrote ${snap.rel}: +${plan.added} −${plan.removed} lines`;
      return {
        ok: true,
        content: withReport(checked.report, BUDGET_TOKENS * 4, (chars) => fitLines(`${what}.\n${plan.diff}`, chars, 'diff lines')),
        summary: plan.created ? `${snap.rel} created` : `${snap.rel} +${plan.added} −${plan.removed}`,
        data: changeData(snap.rel, plan.diff, plan.before, () => plan.newText, plan.newText.length, plan.created),
        fileVersions,
        facts: {
          edit: {
            path: snap.rel,
            hash: fileVersions[snap.rel]!,
            added: plan.added,
            removed: plan.removed,
            ...(plan.created ? { created: true } : {}),
          },
        },
      };
    } catch (err) {
      return errorResult(err, input.path);
    }
  },
};

/** The proposed content from the raw input and the file's bytes: the plan execute writes if the file stays the same. */
function preview(raw: unknown, current: Uint8Array | undefined, rel?: string): EditPreview {
  const input = WriteFileInputSchema.safeParse(raw);
  if (!input.success) return { ok: false, message: 'the write is malformed.' };
  const path = rel ?? input.data.path;
  const plan = planWrite(current, input.data.content, path);
  return plan.ok ? plans.preview(path, plan) : { ok: false, message: plan.message };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
