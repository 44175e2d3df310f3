// The gallery's states of issue 34: the activity line while a call's input streams and while a
// command runs, the stall notice with Stop and Retry, a reply whose stream was cut, and a call the
// mode did not allow ("Not run in Plan mode", neutral).
import type { TranscriptItem } from '../../src/protocol/index.js';
import { fixSteps, type GalleryState, HINTS, said, snap, user } from './states.js';

const now = Date.now();

const runningTests: TranscriptItem = {
  kind: 'intent',
  id: 'i9',
  tool: 'run_tests',
  summary: "the project's tests",
  risk: 'execute',
  status: 'running',
  command: 'npm test',
  startedAt: now - 12_000,
  progressTail: '▶ price\n  ✔ subtotal adds every line (0.4ms)\n',
};

const notRunWrite: TranscriptItem = {
  kind: 'intent',
  id: 'w1',
  tool: 'write_file',
  toolKind: 'edit',
  summary: 'src/price.js',
  risk: 'write',
  status: 'failed',
  paths: ['src/price.js'],
  result: {
    ok: false,
    notRun: true,
    code: 'blocked_by_mode',
    summary: 'Not run in Plan mode',
    detail: 'The call to write_file did not run: write_file is not available in Plan mode.',
  },
};

export const ACTIVITY_STATES: GalleryState[] = [
  {
    id: 'activity-writing',
    title: 'The activity line while the model writes a call: "Writing src/price.js · 3.1 kB"',
    snapshot: snap([...fixSteps, said('a4', 'Here is the whole file, rounded to the nearest cent.', false)], {
      status: 'running',
      activity: { type: 'tool_input', call: 0, tool: 'write_file', toolKind: 'edit', bytes: 3_100, path: 'src/price.js' },
    }),
  },
  {
    id: 'activity-running',
    title: 'The activity line while a command runs: "Running npm test · 12 s"',
    snapshot: snap([user, said('a1', 'I will run the tests first to see what fails.'), runningTests], {
      status: 'executing',
      hostNow: now,
    }),
  },
  {
    id: 'stalled',
    title: 'The model stream went quiet: the notice with Stop and Retry',
    snapshot: snap([...fixSteps, said('a4', 'Checking the other callers of discount() before I', false)], {
      status: 'running',
      activity: { type: 'stalled', silentMs: 25_000 },
    }),
  },
  {
    id: 'cut',
    title: 'A reply whose stream was cut, kept and marked, and the failure with Retry',
    snapshot: snap(
      [
        user,
        { kind: 'assistant', id: 'a1', text: 'I will run the tests first, then read src/price.js and', done: true, cut: true },
        {
          kind: 'notice',
          id: 'n2',
          level: 'error',
          text: 'The model sent nothing for 180 s, so Keel stopped waiting for this turn.',
          action: { label: 'Show Log', message: 'log/show' },
          retry: true,
        },
      ],
      { status: 'failed' },
    ),
  },
  {
    id: 'blocked-by-mode',
    title: 'Plan mode: a write the mode does not allow reads "Not run in Plan mode", neutral',
    snapshot: snap(
      [
        { kind: 'user', id: 'u1', text: 'Plan how to make discounts round to the nearest cent.' },
        notRunWrite,
        said('a1', 'In Plan mode I only plan: the fix is in the to-do list, nothing changed yet.'),
      ],
      { hints: { ...HINTS, mode: 'plan' } },
    ),
  },
];
