// How `keel run` prints sub-agents: each child's lines indented under the call that started it
// (by depth), its text printed once per finished turn (children run side by side, so streamed
// text would interleave), and each plan task's state — waiting, running, done, failed — on a
// line of its own as it changes.
import { findIntent, PLAN_TOOL, visibleText, type ConversationState, type FrameRecord, type RuntimeEvent } from '../kernel/index.js';
import { renderEvent, type Printer } from './render.js';

/** Prints one event of any frame; `state` is the task's state after the event. */
export function renderTaskEvent(p: Printer, e: RuntimeEvent, state: ConversationState): void {
  const intent = (id: string) => findIntent(state, id)?.intent;
  const frame = e.frame === undefined ? undefined : state.frames[e.frame];
  if (!frame) {
    renderEvent(p, e, intent);
    if (e.type === 'run_started' && !e.modelKept && state.agent?.model) p.line(`◇ model ${e.model} (the agent's)`);
    if (e.type === 'intent_proposed' && e.intent.tool === PLAN_TOOL) printPlanWaiting(p, e.intent.input);
    if (e.type === 'observation' && intent(e.observation.intentId)?.tool === PLAN_TOOL) printPlanUnrun(p, e.observation.data);
    return;
  }
  const inner = indented(p, '  '.repeat(frame.depth));
  renderFramed(inner, e, frame, intent);
  const planState = PLAN_STATE[e.type];
  if (frame.planTaskId && planState) p.line(`◆ plan task ${visibleText(frame.planTaskId)}: ${planState}`);
}

function renderFramed(p: Printer, e: RuntimeEvent, frame: FrameRecord, intent: Parameters<typeof renderEvent>[2]): void {
  switch (e.type) {
    case 'frame_started': {
      const label = frame.planTaskId ? `sub-agent [${frame.planTaskId}]` : 'sub-agent';
      return p.line(`┌ ${label}: ${visibleText(firstLine(e.task))} (tools: ${e.tools.join(', ') || 'none'})`);
    }
    case 'user_message':
    case 'text_delta':
      return;
    case 'model_final': {
      const last = frame.state.messages.find((m) => m.seq === e.seq);
      if (last?.type === 'assistant' && last.text.trim()) p.line(`│ ${visibleText(firstLine(last.text.trim()))}`);
      return;
    }
    case 'run_finished':
      return p.line(`└ sub-agent done (${frame.state.turn} turn${frame.state.turn === 1 ? '' : 's'})`);
    default:
      return renderEvent(p, e, intent);
  }
}

/** A plan task's state changes with its frame's start and end (read from the event: the state may be ahead). */
const PLAN_STATE: Partial<Record<RuntimeEvent['type'], string>> = {
  frame_started: 'running',
  run_finished: 'done',
  run_failed: 'failed',
  run_cancelled: 'cancelled',
};

function printPlanWaiting(p: Printer, input: unknown): void {
  const tasks = (input as { tasks?: { id?: unknown }[] } | null)?.tasks;
  if (!Array.isArray(tasks)) return;
  for (const t of tasks) if (typeof t?.id === 'string') p.line(`◆ plan task ${visibleText(t.id)}: waiting`);
}

/** Tasks that never had a frame (refused, a dependency failed, the task was cancelled) end here. */
function printPlanUnrun(p: Printer, data: unknown): void {
  const tasks = (data as { tasks?: { id: string; status: string; frameId?: string }[] } | null)?.tasks ?? [];
  for (const t of tasks) {
    if (t.frameId !== undefined) continue;
    const state = t.status === 'skipped' ? 'failed (not run)' : t.status;
    p.line(`◆ plan task ${visibleText(t.id)}: ${state}`);
  }
}

/** A printer whose lines start with `pad`. */
function indented(p: Printer, pad: string): Printer {
  return { out: (text) => p.out(text), line: (text) => p.line(`${pad}${text}`) };
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 157)}…` : line;
}
