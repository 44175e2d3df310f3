// Pointers in the context. read_file answers "unchanged since step N" instead of sending a file
// the model already has — but that answer stands for the text of an earlier read, and is true
// only while that text is in the same request, whole. A later fold can take the read away, the
// last-resort trim can cut it: the request would then point at nothing and the model would edit
// a file whose text it cannot see. So projection checks every pointer against the request it is
// building and puts the read's text in the pointer's place when the text is not there, and a fold
// counts what its range will cost its live pointers.
import type { ModelMessage } from '../contracts/model.js';
import type { StateMessage } from '../contracts/state.js';
import type { Observation } from '../contracts/tool.js';

type ObservationMessage = Extract<StateMessage, { type: 'observation' }>;

/** The observations whose text a pointer stands for (a whole read, or pages covering the file), oldest first. */
export function pointerTargets(messages: readonly StateMessage[], pointer: ObservationMessage): ObservationMessage[] {
  const { path, hash } = pointer.observation.facts!.unchanged!;
  const reads = messages.filter(
    (m): m is ObservationMessage =>
      m.type === 'observation' &&
      m.seq < pointer.seq &&
      !m.observation.facts?.read?.cut &&
      m.observation.facts?.read?.path === path &&
      m.observation.facts.read.hash === hash,
  );
  const whole = reads.findLast(
    (m) => m.observation.facts!.read!.from <= 1 && m.observation.facts!.read!.to >= m.observation.facts!.read!.total,
  );
  if (whole) return [whole];
  // Pages read since the latest first page, if they cover the file together.
  const start = reads.findLastIndex((m) => m.observation.facts!.read!.from <= 1);
  if (start < 0) return [];
  const pages = reads.slice(start);
  let reached = 0;
  for (const p of [...pages].sort((a, b) => a.observation.facts!.read!.from - b.observation.facts!.read!.from)) {
    const r = p.observation.facts!.read!;
    if (r.from > reached + 1) return [];
    reached = Math.max(reached, r.to);
  }
  return reached >= pages[0]!.observation.facts!.read!.total ? pages : [];
}

export function isPointer(o: Observation): boolean {
  return o.ok && o.facts?.unchanged !== undefined;
}

/** What a pointer says when the text it stands for is not in the request: the text itself. */
function expandedPointer(pointer: ObservationMessage, targets: readonly ObservationMessage[], step: number | undefined): string {
  const { path } = pointer.observation.facts!.unchanged!;
  if (targets.length === 0)
    return `${path} is unchanged since you last read it, but that read is not in your context any more. Call read_file with force: true to see it.`;
  const when = step === undefined ? 'your earlier read' : `your read at step ${step}`;
  return `${path} is unchanged since ${when}, which this request no longer shows whole; here is that read again:\n${targets.map((t) => t.observation.content).join('\n')}`;
}

/** The messages with every pointer whose text is not shown whole among them replaced by that text. */
export function resolvePointers(
  messages: readonly ModelMessage[],
  history: readonly StateMessage[],
): { messages: ModelMessage[]; changed: boolean } {
  const byIntent = new Map<string, ObservationMessage>();
  const stepOf = new Map<string, number>();
  for (const m of history) {
    if (m.type === 'observation') byIntent.set(m.observation.intentId, m);
    if (m.type === 'assistant') for (const id of m.intentIds) stepOf.set(id, m.step);
  }
  const shown = new Map<string, string>();
  for (const m of messages) if (m.role === 'tool_result') shown.set(m.intentId, m.content);
  let changed = false;
  const out = messages.map((m) => {
    if (m.role !== 'tool_result') return m;
    const pointer = byIntent.get(m.intentId);
    if (!pointer || !isPointer(pointer.observation) || m.content !== pointer.observation.content) return m;
    const targets = pointerTargets(history, pointer);
    if (targets.length > 0 && targets.every((t) => shown.get(t.observation.intentId) === t.observation.content)) return m;
    changed = true;
    return { ...m, content: expandedPointer(pointer, targets, targets[0] && stepOf.get(targets[0].observation.intentId)) };
  });
  return { messages: out, changed };
}
