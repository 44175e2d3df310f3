// The episode note that replaces folded steps. By default the model writes it, asked with a
// fixed prompt appended to the very request it was about to get (so the request reads its
// whole prefix from the cache); when that fails, or the provider cannot answer unscripted
// requests, or answers with a tool call or nothing, Keel writes it: one line per folded call — the
// tool, its input summary, the outcome, the diff stat of an edit, the failing tests of a test run
// and the files a search found hits in. The user's own messages in the folded range are kept word
// for word.
import type { ModelRequest } from '../contracts/model.js';
import type { ConversationState, StateMessage } from '../contracts/state.js';
import { quote, stepRange } from './context-block.js';
import type { FoldPlan } from './fold-plan.js';

/** The output limit of a note request: a note is short. */
export const NOTE_MAX_OUTPUT_TOKENS = 1024;

/** The fixed instruction of a note request (`{steps}` and `{last}` are filled in). */
export const NOTE_PROMPT =
  'Keel is about to fold the oldest of your steps shown above ({steps}: from the start of the history after the task ' +
  'up to and including the results of {last}) into an episode note that will replace them in your context from now on. ' +
  'Write that note now, for your own later use: what was tried, what was learned, which files matter and why (with the ' +
  'names, functions and line numbers you will need), and what is left to do. Plain text, at most 250 words. Do not call tools.';

/** The request that asks the model for the note: the turn's request plus the instruction. */
export function noteRequest(request: ModelRequest, state: ConversationState, plan: FoldPlan): ModelRequest {
  const prompt = NOTE_PROMPT.replace('{steps}', stepRange(plan.steps).toLowerCase()).replace('{last}', lastCalls(state, plan));
  return {
    ...request,
    messages: [...request.messages, { role: 'user', text: prompt }],
    maxOutputTokens: NOTE_MAX_OUTPUT_TOKENS,
    purpose: 'note',
  };
}

/** The model's note, with the user's folded messages added word for word. */
export function modelNote(text: string, plan: FoldPlan): string {
  return [text.trim(), ...userLines(plan.messages)].join('\n');
}

/** Keel's own note: a line per folded call, and the user's messages. Deterministic. */
export function fallbackNote(state: ConversationState, plan: FoldPlan): string {
  const results = new Map<string, Extract<StateMessage, { type: 'observation' }>['observation']>();
  for (const m of plan.messages) if (m.type === 'observation') results.set(m.observation.intentId, m.observation);
  const lines: string[] = [];
  for (const m of plan.messages) {
    if (m.type === 'user') lines.push(userLine(m.text));
    if (m.type !== 'assistant') continue;
    if (m.intentIds.length === 0 && m.text.trim()) lines.push(`- step ${m.step}: said ${quote(m.text, 200)}`);
    for (const id of m.intentIds) {
      const intent = state.intents[id];
      if (!intent) continue;
      lines.push(`- step ${m.step}: ${intent.tool} ${quote(intent.summary, 100)} → ${outcome(results.get(id))}`);
    }
  }
  return lines.join('\n');
}

function outcome(o: Extract<StateMessage, { type: 'observation' }>['observation'] | undefined): string {
  if (!o) return 'no result';
  const line = o.summary ?? o.content.split('\n', 1)[0] ?? '';
  const edit = o.facts?.edit;
  const stat = edit && !line.includes(`+${edit.added}`) ? ` (+${edit.added} −${edit.removed})` : '';
  return `${o.ok ? 'ok' : `failed (${o.code ?? 'execution_failed'})`}: ${quote(line, 140)}${stat}${details(o.facts)}`;
}

/** What a first line would lose: which tests failed, where a search found hits (from the tool's facts). */
function details(facts: Extract<StateMessage, { type: 'observation' }>['observation']['facts']): string {
  const failing = facts?.test?.failing ?? [];
  const hits = facts?.search?.paths ?? [];
  const parts: string[] = [];
  if (failing.length) parts.push(`failing: ${failing.map((n) => quote(n, 100)).join(', ')}`);
  if (hits.length) parts.push(`hits in: ${hits.map((p) => quote(p, 100)).join(', ')}`);
  return parts.length ? `; ${parts.join('; ')}` : '';
}

function userLines(messages: readonly StateMessage[]): string[] {
  return messages.flatMap((m) => (m.type === 'user' ? [userLine(m.text)] : []));
}

function userLine(text: string): string {
  return `- the user said (verbatim): ${JSON.stringify(text)}`;
}

/** The calls of the last folded step, for the prompt to say where the fold ends. */
function lastCalls(state: ConversationState, plan: FoldPlan): string {
  const last = [...plan.messages].reverse().find((m) => m.type === 'assistant');
  if (last?.type !== 'assistant' || last.intentIds.length === 0) return 'your reply at that step';
  const calls = last.intentIds.map((id) => state.intents[id]).flatMap((i) => (i ? [`${i.tool} ${quote(i.summary, 80)}`] : []));
  return `your call${calls.length === 1 ? '' : 's'} ${calls.join(', ')}`;
}
