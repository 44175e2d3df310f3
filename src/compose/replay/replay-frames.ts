// Sub-agent frames in a replay: which recorded frame a frame of the replay plays. Frame ids are
// new in every run and parallel children interleave in the log, so a child is matched by its
// place in the tree: the parent frame (matched the same way, the task's own frame to itself),
// the position of the starting call among that frame's calls, then the plan task id (or, for
// several children of one call, their order of starting).
import type { RuntimeEvent } from '../../kernel/index.js';

/** The task's own frame. */
export const ROOT_FRAME = '';

type FrameStart = Extract<RuntimeEvent, { type: 'frame_started' }>;

/** A log's events, split by the frame they belong to (ROOT_FRAME: the task's own). */
export function eventsByFrame(events: readonly RuntimeEvent[]): Map<string, RuntimeEvent[]> {
  const out = new Map<string, RuntimeEvent[]>([[ROOT_FRAME, []]]);
  for (const e of events) {
    const key = e.frame ?? ROOT_FRAME;
    const list = out.get(key) ?? [];
    list.push(e);
    out.set(key, list);
  }
  return out;
}

/** Ids of a frame's calls, in the order the model proposed them. */
function callIds(frameEvents: readonly RuntimeEvent[] | undefined): string[] {
  return (frameEvents ?? []).flatMap((e) => (e.type === 'intent_proposed' ? [e.intent.id] : []));
}

function starts(byFrame: Map<string, RuntimeEvent[]>): FrameStart[] {
  const out: FrameStart[] = [];
  for (const list of byFrame.values()) for (const e of list) if (e.type === 'frame_started') out.push(e);
  return out.sort((a, b) => a.seq - b.seq);
}

/**
 * The recorded frame a replayed frame plays, undefined when the recording has none there
 * (the current build started a child the recording did not).
 */
export function matchFrame(
  recorded: Map<string, RuntimeEvent[]>,
  replayed: Map<string, RuntimeEvent[]>,
  frame: string,
): string | undefined {
  if (frame === ROOT_FRAME) return ROOT_FRAME;
  const replayedStarts = starts(replayed);
  const start = replayedStarts.find((s) => s.frame === frame);
  if (!start) return undefined;
  const parent = start.parentFrame ?? ROOT_FRAME;
  const recordedParent = matchFrame(recorded, replayed, parent);
  if (recordedParent === undefined) return undefined;
  const position = callIds(replayed.get(parent)).indexOf(start.parentIntentId);
  const recordedCall = callIds(recorded.get(recordedParent))[position];
  if (recordedCall === undefined) return undefined;
  const candidates = starts(recorded).filter((s) => s.parentIntentId === recordedCall);
  if (start.planTaskId !== undefined) return candidates.find((s) => s.planTaskId === start.planTaskId)?.frame;
  const siblings = replayedStarts.filter((s) => s.parentIntentId === start.parentIntentId);
  return candidates[siblings.indexOf(start)]?.frame;
}

/** How a report names a recorded frame: its plan task, or the start of its brief. */
export function frameName(recorded: Map<string, RuntimeEvent[]>, frame: string): string {
  const start = recorded.get(frame)?.find((e) => e.type === 'frame_started');
  if (start?.type !== 'frame_started') return frame;
  if (start.planTaskId !== undefined) return `plan task ${start.planTaskId}`;
  // The brief is the model's text: one line, no control characters (it reaches a terminal).
  const brief = start.task
    .replace(/\s+/g, ' ')
    .replace(/\p{Cc}/gu, '')
    .trim();
  return `sub-agent "${brief.length > 40 ? `${brief.slice(0, 40)}…` : brief}"`;
}
