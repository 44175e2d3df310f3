// The one call that decides an approval. Every route a person answers by — the card in the view,
// the diff editor's title bar, the approval keys, the terminal prompt of `keel run` — ends here;
// those routes only show the question. The host passes how it drives a task (VS Code: it claims
// the task's lock first, so no window decides a task another window runs); nothing is decided
// for an intent that no longer waits.
import { findIntent, type ApprovalScope, type RuntimeFacade } from '../kernel/index.js';

export type ApprovalDecision =
  | { approve: true; scope: ApprovalScope }
  /** `unanswered`: nobody could answer (a closed terminal), so the call is refused, not rejected by a person. */
  | { approve: false; reason: string; unanswered?: boolean };

export type DecideOutcome = 'decided' | 'not_waiting' | 'refused';

export interface DecisionTarget {
  runtime: Pick<RuntimeFacade, 'approve' | 'reject' | 'getState'>;
}

/**
 * Decides `intentId` of `target` once `drive` (the host's claim on the task: its lock) agrees.
 * Without `drive` (a headless run owns its task alone) the decision goes straight through.
 */
export async function decideApproval(
  target: DecisionTarget,
  intentId: string,
  decision: ApprovalDecision,
  drive?: () => Promise<boolean>,
): Promise<DecideOutcome> {
  if (!waiting(target, intentId)) return 'not_waiting';
  if (drive && !(await drive())) return 'refused';
  // Looked at again: while the lock was claimed another route may have answered.
  if (!waiting(target, intentId)) return 'not_waiting';
  if (decision.approve) target.runtime.approve(intentId, decision.scope);
  else target.runtime.reject(intentId, decision.reason, decision.unanswered ? { unanswered: true } : undefined);
  return 'decided';
}

function waiting(target: DecisionTarget, intentId: string): boolean {
  return findIntent(target.runtime.getState(), intentId)?.intent.status === 'awaiting_approval';
}
