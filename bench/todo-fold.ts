// bench:compose's todoCarriedAcrossFolds: a task writes a to-do list (some items open), reads a
// file, answers; the task is then really folded (the user's "fold now") and the request the next
// turn would send is projected. The yardstick is the list the bench itself wrote: true only when
// the call that wrote it was folded away and every open item's words, with its state, are in the
// request's stable prefix. A build whose fold drops the list prints false.
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { composeRuntime } from '../src/compose/index.js';
import type { ModelRequest, TodoItem } from '../src/kernel/index.js';
import { createNodeWorkspace } from '../src/node/node-workspace.js';
import { ScriptedProvider, textTurn, toolTurn } from '../src/providers/scripted.js';

const LIST: TodoItem[] = [
  { id: 'a', text: 'Locate the retry loop in the HTTP client', status: 'done' },
  { id: 'b', text: 'Cap the backoff at thirty seconds', status: 'in_progress' },
  { id: 'c', text: 'Cover the cap with a unit test', status: 'pending' },
];

/** The state words an item may be shown with in the prefix (any wording that names its state). */
const STATE_WORDS: Record<TodoItem['status'], RegExp> = {
  pending: /pending|\[ \]/,
  in_progress: /in[ _]progress|\[>\]/,
  done: /done|\[x\]/,
};

export async function todoCarriedAcrossFolds(): Promise<boolean> {
  const root = fs.mkdtempSync(path.join(tmpdir(), 'keel-bench-todo-'));
  try {
    fs.writeFileSync(path.join(root, 'client.ts'), 'export async function get(url: string) { return fetch(url); }\n');
    const workspace = await createNodeWorkspace(root);
    const runtime = composeRuntime({
      provider: new ScriptedProvider([
        toolTurn('todo_write', { todos: LIST }),
        toolTurn('read_file', { path: 'client.ts' }, '', 'call_read'),
        textTurn('The client has no retry loop yet.'),
      ]),
      settings: { maxTurns: 6, autoApprove: [], commandsAllow: [], commandsDeny: [] },
      workspace,
      trusted: () => true,
      interactive: false,
    });
    for await (const _ of runtime.send('Cap the HTTP client backoff.')) {
      // the scripted run ends by itself
    }
    if ((await runtime.fold()) !== 'folded') return false;
    return carried(runtime.preview());
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

function carried(request: ModelRequest): boolean {
  const live = request.messages.slice(request.stablePrefix);
  const stillLive = live.some((m) => m.role === 'assistant' && m.toolCalls.some((c) => c.tool === 'todo_write'));
  if (stillLive) return false;
  const lines = request.messages.slice(0, request.stablePrefix).flatMap((m) => (m.role === 'user' ? m.text.split('\n') : []));
  return LIST.filter((t) => t.status !== 'done').every((t) => lines.some((l) => l.includes(t.text) && STATE_WORDS[t.status].test(l)));
}
