// The panel's states the gallery shows, as the host would send them: each a session snapshot (the
// protocol's own message, so a state that no longer parses fails the build of the gallery), and,
// where the state is a moment of use, what to do in the page before the picture (open the meter's
// details, a checkpoint's menu).
import type { Hints, Meter, SessionSnapshot, TranscriptItem } from '../../src/protocol/index.js';

export interface GalleryState {
  id: string;
  title: string;
  snapshot: SessionSnapshot;
  /** CSS selector to click in the page before the picture. */
  click?: string;
}

export const HINTS: Hints = {
  noApiKey: false,
  restricted: false,
  canResume: false,
  model: { provider: 'anthropic', model: 'claude-sonnet-5-5', vision: true },
  autoApprove: ['read'],
};

const METER: Meter = {
  usedTokens: 24_300,
  windowTokens: 1_000_000,
  split: { systemTools: 6_100, notes: 0, history: 18_200, outputReserve: 32_000 },
  tokens: { input: 9_800, cacheRead: 41_000, cacheWrite: 14_500, output: 2_300 },
  cost: { input: 0.0196, cacheRead: 0.0082, cacheWrite: 0.0363, output: 0.023 },
  costUsd: 0.0871,
  folds: 0,
};

const ASK = 'Fix the failing tests in this workspace.';
export const user: TranscriptItem = { kind: 'user', id: 'u1', text: ASK };
export const said = (id: string, text: string, done = true): TranscriptItem => ({ kind: 'assistant', id, text, done });

const testRun = (status: 'awaiting_approval' | 'done'): TranscriptItem => ({
  kind: 'intent',
  id: 'i1',
  tool: 'run_tests',
  summary: "the project's tests",
  risk: 'execute',
  status,
  command: 'npm test',
  ...(status === 'awaiting_approval'
    ? { approvalReason: 'Detected from the project: package.json scripts.test is "node --test test/".' }
    : {
        elapsedMs: 1600,
        result: {
          ok: true,
          failing: true,
          summary: '3 passed, 1 failed',
          detail: 'discount rounds to the nearest cent: expected 500, got 499',
        },
      }),
});

const readPrice: TranscriptItem = {
  kind: 'intent',
  id: 'i2',
  tool: 'read_file',
  summary: 'src/price.js',
  risk: 'read',
  status: 'done',
  elapsedMs: 4,
  result: { ok: true, summary: 'src/price.js (lines 1–25 of 25)' },
};

const edit = (status: 'awaiting_approval' | 'done'): TranscriptItem => ({
  kind: 'intent',
  id: 'i3',
  tool: 'edit_file',
  summary: 'src/price.js (1 block)',
  risk: 'write',
  status,
  paths: ['src/price.js'],
  ...(status === 'awaiting_approval'
    ? { approvalReason: 'Changes src/price.js. The diff is open in the editor.' }
    : { elapsedMs: 900, result: { ok: true, summary: 'src/price.js +1 −1' } }),
});

export const fixSteps: TranscriptItem[] = [
  user,
  said('a1', 'I will run the tests first to see what fails.'),
  testRun('done'),
  said('a2', 'The discount test fails: 1999 at 25% should give 500 cents. Let me read `src/price.js`.'),
  readPrice,
  said('a3', '`discount()` rounds down with `Math.floor`; it should round to the nearest cent. Here is the fix.'),
];

export function snap(items: TranscriptItem[], patch: Partial<SessionSnapshot> = {}): SessionSnapshot {
  return {
    type: 'session/snapshot',
    seq: 0,
    hostNow: Date.now(),
    taskId: 'gallery',
    itemsJson: JSON.stringify(items),
    status: 'completed',
    retry: null,
    pendingIntentIds: [],
    meter: METER,
    hints: HINTS,
    tasks: {
      tasks: [{ id: 'gallery', title: 'Fix the failing tests', updatedAt: Date.now(), status: 'completed' }],
      currentTaskId: 'gallery',
    },
    ...patch,
  };
}

const LONG_CODE = Array.from(
  { length: 60 },
  (_, i) => `  totals.push(round(lines[${i}].unitCents * lines[${i}].quantity)); // line ${i + 1}`,
).join('\n');
const MARKDOWN = [
  'Here is where the cents go:',
  '',
  '| file | what it does | lines | tests |',
  '| --- | --- | --- | --- |',
  '| `src/price.js` | subtotal, discount and total in integer cents | 25 | 4 |',
  '| `test/price.test.js` | the checkout cases, one per rounding rule | 30 | 4 |',
  '',
  '- [x] read `src/price.js:12`',
  '- [ ] round half up',
  '',
  '```js src/totals.js',
  'function totals(lines) {',
  '  const totals = [];',
  LONG_CODE,
  '  return totals;',
  '}',
  '```',
].join('\n');

const plan: TranscriptItem[] = [
  user,
  said('a1', 'Two independent looks first, in parallel.'),
  {
    kind: 'intent',
    id: 'p1',
    tool: 'delegate_plan',
    summary: 'Find why discount() is off (2 tasks)',
    risk: 'read',
    status: 'running',
    startedAt: Date.now() - 6000,
    plan: [
      { id: 'tests', dependsOn: [] },
      { id: 'code', dependsOn: [] },
    ],
  },
  {
    kind: 'frame',
    id: 'f1',
    parentIntentId: 'p1',
    depth: 1,
    task: 'Run the tests and report each failure',
    planTaskId: 'tests',
    status: 'done',
    turns: 2,
    calls: 1,
    tokens: 3100,
    answer: 'One failure: discount(1999, 25) is 499, expected 500.',
  },
  {
    kind: 'frame',
    id: 'f2',
    parentIntentId: 'p1',
    depth: 1,
    task: 'Read src/price.js',
    planTaskId: 'code',
    status: 'running',
    turns: 1,
    calls: 1,
    tokens: 1800,
  },
];

export const STATES: GalleryState[] = [
  { id: 'welcome', title: 'Welcome', snapshot: snap([], { taskId: undefined, status: 'idle', tasks: { tasks: [] } }) },
  {
    id: 'streaming',
    title: 'Streaming an answer',
    snapshot: snap([user, said('a1', 'I will run the tests first, then read the code under test. The discount test', false)], {
      status: 'running',
    }),
  },
  {
    id: 'command-waits',
    title: 'A command waits for approval',
    snapshot: snap([user, said('a1', 'I will run the tests first to see what fails.'), testRun('awaiting_approval')], {
      status: 'waiting_for_approval',
      pendingIntentIds: ['i1'],
    }),
  },
  {
    id: 'diff-review',
    title: 'An edit in review (the diff is open)',
    snapshot: snap([...fixSteps, edit('awaiting_approval')], { status: 'waiting_for_approval', pendingIntentIds: ['i3'] }),
  },
  { id: 'plan', title: 'A plan with sub-agents', snapshot: snap(plan, { status: 'executing' }) },
  {
    id: 'checkpoint',
    title: 'A checkpoint and Files changed',
    click: '[data-testid="checkpoint-menu"]',
    snapshot: snap([
      ...fixSteps,
      edit('done'),
      { kind: 'checkpoint', id: 'k1', seq: 20, step: 3, restore: false, files: [{ path: 'src/price.js', change: 'modified' }] },
      said('a4', 'All tests pass now: `discount()` rounds to the nearest cent.'),
      { kind: 'changes', id: 'c1', fromSeq: 20, toSeq: 20, files: [{ path: 'src/price.js', change: 'modified', added: 1, removed: 1 }] },
    ]),
  },
  {
    id: 'memory',
    title: 'Remembering (memory)',
    snapshot: snap(
      [
        { kind: 'user', id: 'u1', text: 'Remember that prices are integer cents.' },
        {
          kind: 'intent',
          id: 'm1',
          tool: 'remember',
          summary: 'Remember (workspace): "Prices are integer cents; round half up."',
          risk: 'write',
          status: 'awaiting_approval',
          approvalReason: 'Remember (workspace): "Prices are integer cents; round half up." — memory outlives this task.',
        },
      ],
      { status: 'waiting_for_approval', pendingIntentIds: ['m1'] },
    ),
  },
  {
    id: 'mcp',
    title: 'An MCP server’s tool',
    snapshot: snap(
      [
        { kind: 'user', id: 'u1', text: 'Echo the marker through the MCP server.' },
        {
          kind: 'intent',
          id: 'x1',
          tool: 'mcp__everything__echo',
          summary: 'everything: echo (server says read-only) {"message":"keel-e2e-echo"}',
          risk: 'execute',
          status: 'awaiting_approval',
          approvalReason: 'Runs code outside the workspace tools (it may change files or the system).',
        },
      ],
      { status: 'waiting_for_approval', pendingIntentIds: ['x1'] },
    ),
  },
  {
    id: 'error-retry',
    title: 'A failed run with Retry',
    snapshot: snap(
      [
        user,
        {
          kind: 'notice',
          id: 'n9',
          level: 'error',
          text: 'The model server answered 500: stand-in is down.',
          action: { label: 'Show Log', message: 'log/show' },
          retry: true,
        },
      ],
      { status: 'failed' },
    ),
  },
  {
    id: 'rate-limited',
    title: '429: retrying with a countdown',
    snapshot: snap([user, said('a1', 'I will run the tests first')], {
      status: 'running',
      retry: { attempt: 2, delayMs: 18_000, message: 'Rate limited (429): too many requests' },
    }),
  },
  {
    id: 'plan-mode',
    title: 'Plan mode: the plan pinned as the to-do list, waiting for approval',
    snapshot: snap(
      [
        { kind: 'user', id: 'u1', text: 'Plan how to make discounts round to the nearest cent.' },
        said('a1', 'The plan is in the to-do list: three steps, nothing changed yet.'),
      ],
      {
        hints: {
          ...HINTS,
          mode: 'plan',
          todos: [
            { id: '1', text: 'Read src/price.js and the failing test', status: 'done' },
            { id: '2', text: 'Round with Math.round in discountCents', status: 'in_progress' },
            { id: '3', text: 'Run the tests and check the cent case passes', status: 'pending' },
          ],
        },
      },
    ),
  },
  {
    id: 'custom-agent',
    title: 'A custom agent picked in the header: the task runs as "security-reviewer"',
    snapshot: snap(
      [
        { kind: 'user', id: 'u1', text: 'Review the discount code for rounding and overflow problems.' },
        said('a1', 'As security-reviewer: I read src/price.js; no overflow, one rounding issue (line 12).'),
      ],
      {
        hints: {
          ...HINTS,
          agents: [
            { name: 'security-reviewer', description: 'Reviews changes for security problems; reads only.' },
            { name: 'docs-writer', description: 'Writes and updates the README and docs.' },
          ],
          agent: 'security-reviewer',
        },
      },
    ),
  },
  { id: 'state-pane', title: 'The context and cost pane', click: '.meter-toggle', snapshot: snap([...fixSteps]) },
  { id: 'markdown', title: 'Markdown: a table, a task list, a long code block', snapshot: snap([user, said('a1', MARKDOWN)]) },
];
