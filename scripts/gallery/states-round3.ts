// The gallery's states of issue 34, problems 11–16: Keel's own requests as compact lines, a
// table that fits a narrow panel, a finished plan that says typing revises it, the to-do pin
// collapsed, a spent Undo, the reject form with one Reject, and words a user knows in the
// context details. (The empty MCP Servers view is a VS Code tree with a welcome, not the
// webview: the gallery cannot show it; see test/unit/vscode/mcp-welcome.test.ts.)
import { buildFixTestsPrompt } from '../../src/host/session/prompts.js';
import { PLAN_APPROVED_TEXT } from '../../src/kernel/index.js';
import type { TodoView, TranscriptItem } from '../../src/protocol/index.js';
import { type GalleryState, HINTS, said, snap } from './states.js';

const TODOS: TodoView[] = [
  { id: '1', text: 'Run the tests and read the failure', status: 'done' },
  { id: '2', text: 'Round discount() to the nearest cent', status: 'in_progress' },
  { id: '3', text: 'Run the tests again', status: 'pending' },
  { id: '4', text: 'Say what changed', status: 'pending' },
];

const TABLE = [
  'What changed, file by file:',
  '',
  '| File | Change | Why |',
  '| --- | --- | --- |',
  '| `src/price.js` | `discount()` rounds to the cent | the test expects 500, not 499 |',
  '| `test/price.test.js` | no change | it was right |',
].join('\n');

const fixRequest: TranscriptItem = { kind: 'user', id: 'u1', text: buildFixTestsPrompt({ testCommand: 'npm test' }), keel: 'fix_tests' };

const waitingWrite: TranscriptItem = {
  kind: 'intent',
  id: 'w1',
  tool: 'edit_file',
  toolKind: 'edit',
  summary: 'src/price.js (1 block)',
  risk: 'write',
  status: 'awaiting_approval',
  paths: ['src/price.js'],
  approvalReason: 'Changes src/price.js. The diff is open in the editor.',
};

export const ROUND3_STATES: GalleryState[] = [
  {
    id: 'keel-prompts',
    title: 'Keel’s own requests as compact lines (Fix the Failing Tests, Plan approved), a table that fits',
    snapshot: snap([
      fixRequest,
      said('a1', TABLE),
      { kind: 'user', id: 'u2', text: PLAN_APPROVED_TEXT, keel: 'plan_approved' },
      said('a2', 'Carrying out the plan: step 2 first.'),
    ]),
  },
  {
    id: 'plan-revise',
    title: 'A finished plan: Approve plan, and the words that typing revises it',
    snapshot: snap(
      [
        { kind: 'user', id: 'u1', text: 'Plan how to make discounts round to the nearest cent.' },
        said('a1', 'The plan is in the to-do list.'),
      ],
      {
        hints: { ...HINTS, mode: 'plan', todos: TODOS.map((t) => ({ ...t, status: 'pending' as const })) },
      },
    ),
  },
  {
    id: 'todo-collapsed',
    title: 'The to-do pin collapsed to one line naming the item in progress',
    snapshot: snap([fixRequest, said('a1', 'Rounding discount() now.', false)], { status: 'running', hints: { ...HINTS, todos: TODOS } }),
    click: '[data-testid="todo-pin-toggle"]',
  },
  {
    id: 'stopped-todo-undone',
    title: 'After Stop: the to-do item not finished, and a spent Undo all changes',
    snapshot: snap(
      [
        fixRequest,
        said('a1', 'Rounded discount() to the nearest cent.'),
        {
          kind: 'changes',
          id: 's9',
          fromSeq: 4,
          toSeq: 8,
          files: [{ path: 'src/price.js', change: 'modified', added: 1, removed: 1 }],
          undone: true,
        },
      ],
      { status: 'cancelled', hints: { ...HINTS, todos: TODOS } },
    ),
  },
  {
    id: 'reject-form',
    title: 'The reject form open: one Reject, with the reason box',
    snapshot: snap([fixRequest, waitingWrite], { status: 'waiting_for_approval', pendingIntentIds: ['w1'] }),
    click: '[data-testid="reject"]',
  },
  {
    id: 'context-words',
    title: 'The context details in words a user knows, with a quiet Summarize finished steps',
    snapshot: snap([fixRequest, said('a1', 'Looking at the tests.')]),
    click: '.meter-toggle',
  },
];
