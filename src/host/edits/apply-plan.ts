// Apply to file… on a code block: the checks and the plan before the user sees a diff, and the
// write after Accept. The block is offered as the call write_file would make, and that call goes
// through the task policy itself (outside the workspace: refused; protected paths: the reason is
// shown when asking), so the button is never a way around it. No vscode: unit-tested on Node.
import { contentHash, messageOf, type ApprovalPolicy, type ToolIntent, type Workspace } from '../../kernel/index.js';
import { planWrite } from '../../tools/edit/plan-write.js';
import { writeFileTool } from '../../tools/write-file.js';

export interface ApplyDeps {
  workspace: Workspace;
  /** The same policy a task's write_file passes (composePolicy with the current settings). */
  policy: ApprovalPolicy;
}

export type ApplyReview =
  | { kind: 'refused'; reason: string }
  /** The file already holds exactly this text: nothing to review. */
  | { kind: 'unchanged'; rel: string }
  | {
      kind: 'review';
      rel: string;
      created: boolean;
      newText: string;
      newBytes: Uint8Array;
      /** Hash of the bytes the diff was planned on (none: a new file). Checked again before writing. */
      baseHash: string | undefined;
      /** Why the policy asks (a protected path says so); none when it would allow the write (the diff is still shown). */
      reason: string | undefined;
    };

export type ApplyOutcome = { ok: true; rel: string } | { ok: false; reason: string };

/** The write_file call a code block applied to `target` amounts to. */
function applyIntent(target: string, text: string): ToolIntent {
  const input = { path: target, content: text };
  return {
    id: 'apply-to-file',
    tool: writeFileTool.name,
    input,
    providerRef: 'user',
    summary: writeFileTool.summarize(input),
    risk: writeFileTool.risk,
    paths: writeFileTool.paths?.(input) ?? [target],
    status: 'proposed',
  };
}

/** Everything that needs no user: the policy's verdict, the file's current bytes, the planned text. */
export async function planApply(target: string, text: string, deps: ApplyDeps): Promise<ApplyReview> {
  const ctx = { tool: writeFileTool, grants: [], workspace: deps.workspace };
  const verdict = await deps.policy.decide(applyIntent(target, text), ctx);
  if (verdict.type === 'deny') return { kind: 'refused', reason: verdict.reason };
  let rel: string;
  try {
    rel = await deps.workspace.resolve(target);
  } catch (error) {
    return { kind: 'refused', reason: messageOf(error) };
  }
  const current = await readIfFile(deps.workspace, rel);
  if (current === 'not_a_file') return { kind: 'refused', reason: `${rel} is not a file.` };
  const plan = planWrite(current, text, rel);
  if (!plan.ok) return { kind: 'refused', reason: plan.message };
  if (current && plan.diff === '' && sameBytes(current, plan.newBytes)) return { kind: 'unchanged', rel };
  return {
    kind: 'review',
    rel,
    created: plan.created,
    newText: plan.newText,
    newBytes: plan.newBytes,
    baseHash: current ? contentHash(current) : undefined,
    // Allowed (write auto-approved) still shows the diff: the user asked to review this change.
    reason: verdict.type === 'ask' ? verdict.reason : undefined,
  };
}

/** After Accept: writes only if the file is still what the diff showed (atomically, by the port). */
export async function writeApproved(review: Extract<ApplyReview, { kind: 'review' }>, workspace: Workspace): Promise<ApplyOutcome> {
  const now = await readIfFile(workspace, review.rel).catch(() => 'unreadable' as const);
  const nowHash = now instanceof Uint8Array ? contentHash(now) : undefined;
  if (now === 'not_a_file' || now === 'unreadable' || nowHash !== review.baseHash)
    return {
      ok: false,
      reason: `${review.rel} changed while the diff was open; nothing was written. Apply again to review the new content.`,
    };
  try {
    await workspace.writeFile(review.rel, review.newBytes);
    return { ok: true, rel: review.rel };
  } catch (error) {
    return { ok: false, reason: messageOf(error) };
  }
}

async function readIfFile(workspace: Workspace, rel: string): Promise<Uint8Array | undefined | 'not_a_file'> {
  const stat = await workspace.stat(rel);
  if (!stat) return undefined;
  if (stat.type !== 'file') return 'not_a_file';
  return workspace.readFile(rel);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
