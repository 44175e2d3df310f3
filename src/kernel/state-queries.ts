// Questions asked of a task's state across its frames — where an intent is, what waits for the
// user, which standing approvals the task holds, which calls a resumed run takes up. Pure reads
// of ConversationState (the root and every sub-agent frame), shared by the runtime, its frames
// and the hosts.
import type { ConversationState, Grant } from './contracts/state.js';
import type { ToolIntent } from './contracts/tool.js';

/** The frame an intent belongs to (undefined: the root) and the intent, wherever it is. */
export function findIntent(state: ConversationState, id: string): { frame: string | undefined; intent: ToolIntent } | undefined {
  const own = state.intents[id];
  if (own) return { frame: undefined, intent: own };
  for (const f of Object.values(state.frames)) {
    const intent = f.state.intents[id];
    if (intent) return { frame: f.id, intent };
  }
  return undefined;
}

/** Every intent waiting for the user, root first, with its frame. */
export function pendingEverywhere(state: ConversationState): { frame: string | undefined; intent: ToolIntent }[] {
  const out: { frame: string | undefined; intent: ToolIntent }[] = state.pendingIntentIds.map((id) => ({
    frame: undefined,
    intent: state.intents[id]!,
  }));
  for (const f of Object.values(state.frames))
    for (const id of f.state.pendingIntentIds) out.push({ frame: f.id, intent: f.state.intents[id]! });
  return out;
}

/** Standing approvals given for this task in any frame: a grant is the task's, not one agent's. */
export function taskGrants(state: ConversationState): Grant[] {
  const grants = [...state.grants];
  for (const f of Object.values(state.frames)) grants.push(...f.state.grants);
  return grants;
}

/** Calls in the task's last assistant turn that have no answer yet (what a resumed run takes up). */
export function openIntentIds(state: ConversationState): string[] {
  const answered = new Set<string>();
  let last: string[] = [];
  for (const m of state.messages) {
    if (m.type === 'observation') answered.add(m.observation.intentId);
    if (m.type === 'assistant') last = m.intentIds;
  }
  return last.filter((id) => !answered.has(id));
}
