// What answering a Plan-mode plan sends, for both hosts: the editor's Approve plan and the
// terminal's prompt after `keel run --mode plan` (or `keel resume LOG --approve-plan`) send the
// same message in the same mode, decided here once.
import { isLiveStatus, PLAN_APPROVED_TEXT, type ConversationState, type UserInput } from '../kernel/index.js';

/** The user's answer to a plan: carry it out, change it (their words, the model revises), or stop. */
export type PlanReply = { type: 'approve' } | { type: 'revise'; text: string } | { type: 'reject' };

/** Why no plan is waiting, in the user's words; undefined when one is (a Plan run ended with a list). */
export function noPlanWaiting(state: ConversationState): string | undefined {
  if (state.mode !== 'plan') return 'the task is not in Plan mode';
  if (state.ledger.todos.length === 0) return 'the Plan run wrote no to-do list';
  if (isLiveStatus(state.status)) return 'the task is still running';
  return undefined;
}

/**
 * The message a reply sends: approving goes on in Agent mode with the list as it is; a change is
 * sent in Plan mode, so the model revises the list and nothing changes yet; rejecting sends nothing.
 */
export function planReplyInput(reply: PlanReply): Exclude<UserInput, string> | undefined {
  if (reply.type === 'approve') return { text: PLAN_APPROVED_TEXT, mode: 'agent' };
  if (reply.type === 'revise') return { text: reply.text, mode: 'plan' };
  return undefined;
}
