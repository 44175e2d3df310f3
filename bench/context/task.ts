// The 30-turn task shape of issue 10 — 18 reads of 15 files, 5 searches, 4 test runs, 6 edits,
// then an answer — played by a deterministic stand-in model that reads each request as it
// arrives on the wire. It answers Keel's note requests with a note built from what the request
// shows. In the `onNeed` variant it re-reads a file only when the request no longer shows the
// file whole and the ledger in the notes block does not vouch for it (read in full, unchanged).
import { estimateTokens, NOTE_PROMPT } from '../../src/kernel/index.js';
import type { WireToolCall, WireTurn } from '../../test/support/model-turn.js';
import { bugLine, BUGGY, fileName } from './workspace.js';

type Call =
  | { tool: 'read'; file: number; reread?: boolean }
  | { tool: 'search'; query: string }
  | { tool: 'test' }
  | { tool: 'edit'; file: number };

const read = (file: number, reread = false): Call => ({ tool: 'read', file, ...(reread ? { reread } : {}) });
const search = (query: string): Call => ({ tool: 'search', query });
const test: Call = { tool: 'test' };
const edit = (file: number): Call => ({ tool: 'edit', file });

/** Turn by turn; four turns make two calls. The 30th turn is the answer. */
const PLAN: Call[][] = [
  [search('export function rule_\\d+_0\\b')],
  [read(1), read(2)],
  [read(3)],
  [test],
  [read(4)],
  [read(5), read(6)],
  [search('Math\\.round\\(subtotal / 7\\)')],
  [read(7)],
  [edit(3)],
  [read(8)],
  [read(9), read(10)],
  [test],
  [search('TODO check rounding 4\\b')],
  [read(11)],
  [edit(7)],
  [read(12)],
  [read(3, true)],
  [edit(9)],
  [read(13), read(14)],
  [search('discount = 0\\) \\{$')],
  [read(15)],
  [test],
  [read(1, true)],
  [edit(1)],
  [edit(4)],
  [read(7, true)],
  [search('export const total_\\d+')],
  [edit(15)],
  [test],
];

/** The file edited outside Keel (a person in their editor) just before the plan's turn 26. */
export const OUTSIDE_EDIT = { file: 7, beforeTurn: 26 };

type WireBlock = { type: string; text?: string; content?: unknown; name?: string; input?: unknown };
export type WireBody = { messages: { role: string; content: string | WireBlock[] }[] };

const NOTE_MARK = NOTE_PROMPT.slice(0, NOTE_PROMPT.indexOf('{'));

export interface Reply {
  turn: WireTurn;
  kind: 'turn' | 'note';
  outputTokens: number;
}

export class StandInModel {
  private next = 0;
  private queued: Call[] = [];
  /** Re-reads made in the `onNeed` variant after the first fold. */
  rereadsAfterFold = 0;
  /** Planned re-reads the `onNeed` variant could skip. */
  skipped = 0;

  constructor(
    private readonly onNeed: boolean,
    private readonly beforeTurn: (turn: number) => void = () => undefined,
  ) {}

  reply(body: WireBody): Reply {
    if (isNoteRequest(body)) return finish({ text: [noteFor(body)] }, 'note');
    for (;;) {
      if (this.queued.length === 0) {
        if (this.next >= PLAN.length)
          return finish({ text: ['Done: the bugs in mod3, mod7 and mod9 are fixed and all 15 tests pass.'] }, 'turn');
        this.beforeTurn(this.next + 1);
        this.queued = this.onNeed ? this.asNeeded(PLAN[this.next]!, body) : PLAN[this.next]!.slice();
        this.next++;
      }
      const calls = this.queued;
      this.queued = [];
      if (calls.length === 0) continue;
      // A read this variant adds before an edit goes first, alone; the edit follows next turn.
      const [first, ...rest] = calls;
      const now = first!.tool === 'read' && rest[0]?.tool === 'edit' ? [first!] : calls;
      if (now.length < calls.length) this.queued = rest;
      const toolCalls = now.map((c, i) => wireCall(c, `toolu_${this.next}_${i}_${now.length}`));
      return finish({ text: [`Turn ${this.next}: ${now.map(describe).join(', ')}.`], toolCalls }, 'turn');
    }
  }

  /** The variant's calls: planned re-reads only when needed, and a read before an edit that needs one. */
  private asNeeded(calls: Call[], body: WireBody): Call[] {
    const out: Call[] = [];
    const folded = hasNotes(body);
    for (const c of calls) {
      const needed = (file: number) => !shownWhole(body, fileName(file)) && !vouchedFor(body, fileName(file));
      if (c.tool === 'read' && c.reread && !needed(c.file)) {
        this.skipped++;
        continue;
      }
      if (c.tool === 'edit' && needed(c.file)) {
        out.push(read(c.file, true));
        if (folded) this.rereadsAfterFold++;
      } else if (c.tool === 'read' && c.reread && folded) this.rereadsAfterFold++;
      out.push(c);
    }
    return out;
  }
}

function finish(turn: WireTurn, kind: Reply['kind']): Reply {
  const outputTokens =
    estimateTokens((turn.text ?? []).join('')) +
    (turn.toolCalls ?? []).reduce((n, c) => n + estimateTokens(JSON.stringify(c.input)) + 10, 0);
  return { turn: { ...turn, usage: { output: outputTokens } }, kind, outputTokens };
}

function wireCall(c: Call, id: string): WireToolCall {
  switch (c.tool) {
    case 'read':
      return { id, name: 'read_file', input: { path: fileName(c.file) } };
    case 'search':
      return { id, name: 'search_files', input: { query: c.query, path: 'src' } };
    case 'test':
      return { id, name: 'run_tests', input: { command: 'node scripts/test.js' } };
    case 'edit': {
      const [search, replace] = BUGGY.includes(c.file)
        ? [bugLine(c.file, true), bugLine(c.file, false)]
        : [`// mod${c.file}: pricing rules`, `// mod${c.file} (reviewed): pricing rules`];
      return { id, name: 'edit_file', input: { path: fileName(c.file), edits: [{ search, replace }] } };
    }
  }
}

function describe(c: Call): string {
  return c.tool === 'read'
    ? `read ${fileName(c.file)}`
    : c.tool === 'search'
      ? `search /${c.query}/`
      : c.tool === 'test'
        ? 'run the tests'
        : `fix ${fileName(c.file)}`;
}

function blocks(body: WireBody, i: number): WireBlock[] {
  const c = body.messages[i]?.content;
  return typeof c === 'string' ? [{ type: 'text', text: c }] : (c ?? []);
}

function isNoteRequest(body: WireBody): boolean {
  const last = blocks(body, body.messages.length - 1).at(-1);
  return last?.type === 'text' && (last.text ?? '').startsWith(NOTE_MARK);
}

/** After a fold the first user message holds the goal and the notes block. */
function hasNotes(body: WireBody): boolean {
  return blocks(body, 0).filter((b) => b.type === 'text').length > 1;
}

/** A note as a model might write it: what it did, from the calls the request shows. */
function noteFor(body: WireBody): string {
  const lines = ['Tried and learned so far:'];
  for (let i = 1; i < body.messages.length; i++) {
    for (const b of blocks(body, i)) {
      if (b.type !== 'tool_use') continue;
      const input = b.input as { path?: string; query?: string; command?: string };
      lines.push(`- ${b.name} ${input.path ?? input.query ?? input.command ?? ''}: pricing rules; BUG flags decide total_N.`);
    }
  }
  lines.push('Files that matter: src/mod03.js, src/mod07.js, src/mod09.js (their BUG_N lines). Left: fix the flags, rerun the tests.');
  return lines.join('\n');
}

/** A read_file result in the request that shows the whole file (not a page, not shortened). */
function shownWhole(body: WireBody, path: string): boolean {
  for (let i = 0; i < body.messages.length; i++) {
    for (const b of blocks(body, i)) {
      if (b.type !== 'tool_result' || typeof b.content !== 'string') continue;
      if (b.content.startsWith(`${path} — `) && !b.content.includes('[Showing lines') && !b.content.includes('cut by Keel')) return true;
      if (b.content.startsWith(`${path} is unchanged since`)) return true;
    }
  }
  return false;
}

/** The ledger in the notes block lists the file as read in full and not changed outside Keel. */
function vouchedFor(body: WireBody, path: string): boolean {
  if (!hasNotes(body)) return false;
  const notes = blocks(body, 0)[1]?.text ?? '';
  const reads = /^- Read: (.*)$/m.exec(notes)?.[1] ?? '';
  const entry = reads.split('; ').find((e) => e.startsWith(`\`${path}\` (`));
  return !!entry && entry.includes('(all ') && !entry.includes('changed outside Keel');
}
