// The proposed content of an edit intent, computed with the tools' own pure plan functions on
// the file's current bytes, so the diff shows exactly what approving would write. No vscode.
import type { ToolIntent } from '../../kernel/contracts/index.js';
import { EditFileInputSchema } from '../../tools/edit-file.js';
import { WriteFileInputSchema } from '../../tools/write-file.js';
import { planEdit } from '../../tools/edit/plan-edit.js';
import { planWrite } from '../../tools/edit/plan-write.js';

export type PlanOutcome = { ok: true; content: string } | { ok: false; message: string };

/** Undefined when the intent's tool changes no file. */
export function planIntentEdit(intent: ToolIntent, current: Uint8Array | undefined): PlanOutcome | undefined {
  if (intent.tool === 'edit_file') {
    const input = EditFileInputSchema.safeParse(intent.input);
    if (!input.success) return { ok: false, message: 'the edit is malformed.' };
    if (!current) return { ok: false, message: `${input.data.path} does not exist.` };
    const plan = planEdit(current, input.data.edits, input.data.path);
    return plan.ok ? { ok: true, content: plan.newText } : { ok: false, message: plan.message };
  }
  if (intent.tool === 'write_file') {
    const input = WriteFileInputSchema.safeParse(intent.input);
    if (!input.success) return { ok: false, message: 'the write is malformed.' };
    const plan = planWrite(current, input.data.content, input.data.path);
    return plan.ok ? { ok: true, content: plan.newText } : { ok: false, message: plan.message };
  }
  return undefined;
}
