// The 30-turn task shape of issue 10 — 23 reads of 15 files (each edit's file read the turn before,
// as read_file asks), 5 searches, 4 test runs, 6 edits, then an answer — played by a deterministic
// stand-in model that reads each request as it arrives on the wire. Like a model, it edits only
// text it can see: before an edit whose search text the
// request does not show, it reads the file (and, when that read does not show the line, finds it
// with search_files and reads those lines). What it cannot help is trusting Keel: when read_file
// answers "unchanged since step N", it takes the file as seen and edits — so an edit made without
// its text in the request (a blind edit) is Keel's fault, and is counted. It answers Keel's note
// requests with a note built from what the request shows.
import { estimateTokens, NOTE_PROMPT } from '../../src/kernel/index.js';
import type { WireToolCall, WireTurn } from '../../test/support/model-turn.js';
import { bugLine, BUGGY, fileName } from './workspace.js';

export type Call =
  | { tool: 'read'; file: number; lines?: [number, number] }
  | { tool: 'search'; query: string; file?: number }
  | { tool: 'test' }
  | { tool: 'edit'; file: number };

const read = (file: number): Call => ({ tool: 'read', file });
const search = (query: string): Call => ({ tool: 'search', query });
const test: Call = { tool: 'test' };
const edit = (file: number): Call => ({ tool: 'edit', file });

/** The task, turn by turn; some turns make two calls. The 30th turn is the answer. */
export const PLAN: Call[][] = [
  [search('export function rule_\\d+_0\\b')],
  [read(1), read(2)],
  [read(3)],
  [test],
  [read(4)],
  [read(5), read(6)],
  [search('Math\\.round\\(subtotal / 7\\)')],
  [read(7), read(3)],
  [edit(3)],
  [read(8)],
  [read(9), read(10)],
  [test],
  [search('TODO check rounding 4\\b')],
  [read(11), read(7)],
  [edit(7)],
  [read(12)],
  [read(3), read(9)],
  [edit(9)],
  [read(13), read(14)],
  [search('discount = 0\\) \\{$')],
  [read(15)],
  [test],
  [read(1)],
  [edit(1), read(4)],
  [edit(4)],
  [read(7)],
  [search('export const total_\\d+'), read(15)],
  [edit(15)],
  [test],
];

export const GOAL = 'Find out why the shop totals are off by a cent and fix it; the tests must pass.';
export const ANSWER = 'Done: the bugs in mod3, mod7 and mod9 are fixed and all 15 tests pass.';

/** The file edited outside Keel (a person in their editor) just before the plan's turn 26. */
export const OUTSIDE_EDIT = { file: 7, beforeTurn: 26 };

type WireBlock = { type: string; text?: string; content?: unknown; name?: string; input?: unknown };
export type WireBody = { messages: { role: string; content: string | WireBlock[] }[] };

const NOTE_MARK = NOTE_PROMPT.slice(0, NOTE_PROMPT.indexOf('{'));
/** How read_file's pointer goes on after "unchanged since": the text is above, it says. */
const POINTED = 'your read of it at step';

export interface Reply {
  turn: WireTurn;
  kind: 'turn' | 'note';
  outputTokens: number;
}

export class StandInModel {
  private next = 0;
  private queued: Call[] = [];
  /** The edit waiting for its text to be shown, and how far the model went to see it. */
  private pending: { call: Call & { tool: 'edit' }; tried: 'read' | 'search' | 'lines' } | undefined;
  /** Edits proposed with their search text nowhere in the request that made them. */
  blindEdits = 0;
  /** Reads and searches the model added before an edit because the request did not show its text. */
  addedReads = 0;

  constructor(private readonly beforeTurn: (turn: number) => void = () => undefined) {}

  reply(body: WireBody): Reply {
    if (isNoteRequest(body)) return finish({ text: [noteFor(body)] }, 'note');
    const calls = this.pending ? this.towardEdit(body) : this.nextCalls(body);
    if (!calls) return finish({ text: [ANSWER] }, 'turn');
    for (const c of calls) if (c.tool === 'edit' && !requestText(body).includes(editOf(c.file).search)) this.blindEdits++;
    const toolCalls = calls.map((c, i) => wireCall(c, `toolu_${this.next}_${i}_${calls.length}`));
    return finish({ text: [turnText(this.next, calls)], toolCalls }, 'turn');
  }

  /** The plan's next calls; an edit whose text is not shown waits, and a read of its file goes first. */
  private nextCalls(body: WireBody): Call[] | undefined {
    if (this.queued.length === 0) {
      if (this.next >= PLAN.length) return undefined;
      this.beforeTurn(this.next + 1);
      this.queued = PLAN[this.next]!.slice();
      this.next++;
    }
    const calls = this.queued;
    this.queued = [];
    const blocked = calls.find(
      (c): c is Call & { tool: 'edit' } => c.tool === 'edit' && !requestText(body).includes(editOf(c.file).search),
    );
    if (!blocked) return calls;
    this.queued = calls.filter((c) => c !== blocked);
    this.pending = { call: blocked, tried: 'read' };
    this.addedReads++;
    return [read(blocked.file)];
  }

  /**
   * The model trusts what Keel says: a read answered "unchanged since step N; that result above
   * shows it whole" counts as seeing the file. (A read shown cut is not trusted: the cut is marked.)
   */
  private towardEdit(body: WireBody): Call[] {
    const pending = this.pending!;
    const { file, search: text } = { file: pending.call.file, search: editOf(pending.call.file).search };
    if (requestText(body).includes(text) || lastResult(body).includes(`${fileName(file)} is unchanged since ${POINTED}`)) {
      this.pending = undefined;
      return [pending.call, ...this.queued.splice(0)];
    }
    this.addedReads++;
    if (pending.tried === 'read') {
      pending.tried = 'search';
      return [{ tool: 'search', query: escapeRegex(text), file }];
    }
    const line = Number(new RegExp(`^\\s*(\\d+): ${escapeRegex(text)}`, 'm').exec(lastResult(body))?.[1] ?? 1);
    pending.tried = 'lines';
    return [{ tool: 'read', file, lines: [Math.max(1, line - 2), line + 2] }];
  }
}

/** An edit's search and replacement: a bug flag turned off, or a comment marked reviewed. */
function editOf(file: number): { search: string; replace: string } {
  return BUGGY.includes(file)
    ? { search: bugLine(file, true), replace: bugLine(file, false) }
    : { search: `// mod${file}: pricing rules`, replace: `// mod${file} (reviewed): pricing rules` };
}

/** What a turn says before its calls (the same words wherever it is computed). */
export function turnText(turn: number, calls: readonly Call[]): string {
  return `Turn ${turn}: ${calls.map(describe).join(', ')}.`;
}

function finish(turn: WireTurn, kind: Reply['kind']): Reply {
  const outputTokens =
    estimateTokens((turn.text ?? []).join('')) +
    (turn.toolCalls ?? []).reduce((n, c) => n + estimateTokens(JSON.stringify(c.input)) + 10, 0);
  return { turn: { ...turn, usage: { output: outputTokens } }, kind, outputTokens };
}

/** A call as the tools take it (the same input wherever it is computed). */
export function toolInput(c: Call): { name: string; input: Record<string, unknown> } {
  switch (c.tool) {
    case 'read':
      return {
        name: 'read_file',
        input: c.lines ? { path: fileName(c.file), startLine: c.lines[0], endLine: c.lines[1] } : { path: fileName(c.file) },
      };
    case 'search':
      return { name: 'search_files', input: { query: c.query, path: c.file === undefined ? 'src' : fileName(c.file) } };
    case 'test':
      return { name: 'run_tests', input: { command: 'node scripts/test.js' } };
    case 'edit':
      return { name: 'edit_file', input: { path: fileName(c.file), edits: [editOf(c.file)] } };
  }
}

function wireCall(c: Call, id: string): WireToolCall {
  return { id, ...toolInput(c) };
}

function describe(c: Call): string {
  return c.tool === 'read'
    ? `read ${fileName(c.file)}${c.lines ? `:${c.lines[0]}-${c.lines[1]}` : ''}`
    : c.tool === 'search'
      ? `search /${c.query}/`
      : c.tool === 'test'
        ? 'run the tests'
        : `fix ${fileName(c.file)}`;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function blocks(body: WireBody, i: number): WireBlock[] {
  const c = body.messages[i]?.content;
  return typeof c === 'string' ? [{ type: 'text', text: c }] : (c ?? []);
}

/** Everything the request shows: every text and tool result. */
function requestText(body: WireBody): string {
  const parts: string[] = [];
  for (let i = 0; i < body.messages.length; i++)
    for (const b of blocks(body, i)) parts.push(typeof b.content === 'string' ? b.content : (b.text ?? JSON.stringify(b.content ?? '')));
  return parts.join('\n');
}

/** The newest tool result's text. */
function lastResult(body: WireBody): string {
  const last = blocks(body, body.messages.length - 1).filter((b) => b.type === 'tool_result');
  return last.map((b) => (typeof b.content === 'string' ? b.content : JSON.stringify(b.content))).join('\n');
}

function isNoteRequest(body: WireBody): boolean {
  const last = blocks(body, body.messages.length - 1).at(-1);
  return last?.type === 'text' && (last.text ?? '').startsWith(NOTE_MARK);
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
