// The model's side of the end-to-end scenarios: a stand-in that plays a model fixing the bug in
// examples/failing-tests. Each reply is chosen from what the request shows (the tool results so
// far), not from how many requests came before, so a reload, a retry or a rejection leads to
// the reply a real model would plausibly give.
import { anthropicSse } from '../../support/anthropic-wire.js';
import type { RecordedRequest, Reply, Responder } from '../../support/model-server.js';
import { chunkText, type WireTurn } from '../../support/model-turn.js';
import { openaiSse } from '../../support/openai-wire.js';

export const bugLine = 'return Math.floor((cents * percent) / 100);';
export const fixLine = 'return Math.round((cents * percent) / 100);';

export const say = {
  start: 'I will run the tests first to see what fails.',
  read: 'The discount test fails: 1999 at 25% should give 500 cents. Let me read src/price.js.',
  edit: 'discount() rounds down with Math.floor; it should round to the nearest cent. Here is the fix.',
  rerun: 'Edit applied. Running the tests again to confirm.',
  done: 'All tests pass now: discount() rounds to the nearest cent.',
  stillFail: 'The tests still fail after the edit; the output above says which.',
  alreadyPass: 'The tests pass already: there is nothing to fix.',
  gaveUp: 'Understood, I will leave src/price.js as it is.',
  readOnly: 'The tools I have here do not edit files or run commands, so I will read src/price.js and say what to change.',
  planning: 'discount() rounds down with Math.floor; it should round to the nearest cent. Here is the plan.',
  planned: 'The plan is ready: approve it to let me make the edit and run the tests.',
  explained: 'discount() rounds down with Math.floor; it should use Math.round. I cannot edit files here, so the change is yours to make.',
  cannot: 'The tools I have here cannot read or edit files, so I cannot fix the failing test here.',
};

/** What the stand-in of `npm start -- --stand-in` says first: what it is, and the one task it knows. */
export const STAND_IN_INTRO =
  'This is Keel’s scripted stand-in, not a real model: it plays one task, fixing the failing test in examples/failing-tests, and follows the mode you pick. ';

export interface ToolStep {
  name: string;
  input: unknown;
  result: string;
  isError: boolean;
}

/** The tool calls and their results in a request, in order, for either wire format. */
export function toolHistory(req: RecordedRequest): ToolStep[] {
  const steps = new Map<string, ToolStep>();
  const order: string[] = [];
  for (const m of (req.body?.messages ?? []) as any[]) {
    if (req.api === 'openai') {
      for (const call of m.tool_calls ?? []) {
        steps.set(call.id, { name: call.function?.name, input: safeJson(call.function?.arguments), result: '', isError: false });
        order.push(call.id);
      }
      if (m.role === 'tool' && steps.has(m.tool_call_id)) steps.get(m.tool_call_id)!.result = textOf(m.content);
      continue;
    }
    if (!Array.isArray(m.content)) continue;
    for (const block of m.content) {
      if (block.type === 'tool_use') {
        steps.set(block.id, { name: block.name, input: block.input, result: '', isError: false });
        order.push(block.id);
      } else if (block.type === 'tool_result' && steps.has(block.tool_use_id)) {
        const step = steps.get(block.tool_use_id)!;
        step.result = textOf(block.content);
        step.isError = block.is_error === true;
      }
    }
  }
  return order.map((id) => steps.get(id)!);
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((c) => (typeof c === 'string' ? c : (c?.text ?? ''))).join('');
  return content === undefined ? '' : JSON.stringify(content);
}

function safeJson(text: unknown): unknown {
  try {
    return typeof text === 'string' ? JSON.parse(text) : text;
  } catch {
    return text;
  }
}

/** Names of the tools the request offers, for either wire format. */
export function offeredTools(req: RecordedRequest): string[] {
  return ((req.body?.tools ?? []) as any[]).map((t) => t.name ?? t.function?.name).filter(Boolean);
}

const isTestRun = (step: ToolStep) =>
  step.name === 'run_tests' || (step.name === 'run_command' && /npm test/.test(JSON.stringify(step.input)));

/** What a test run's result says: passed only when it ran and exited 0 (either tool, either wire format). */
const testsPassed = (step: ToolStep) => !step.isError && !step.result.startsWith('Error (') && /\bexit code 0\b/.test(step.result);

/** The plan a mode that cannot edit gets (Plan mode writes it as its to-do list). */
const PLAN = [
  { id: '1', text: 'Change discount() in src/price.js to round with Math.round', status: 'pending' },
  { id: '2', text: 'Run the tests to confirm the discount test passes', status: 'pending' },
];

/**
 * The next turn of the bug fix, given what has happened so far. Like a real model it uses only
 * what the request offers (run_tests, else run_command with npm test), so in a mode or agent that
 * cannot edit it reads and plans or explains instead; and it says the tests pass only when the
 * last test run says so.
 */
function fixerTurn(req: RecordedRequest): WireTurn {
  const history = toolHistory(req);
  const offered = offeredTools(req);
  if (!offered.includes('edit_file')) return readOnlyTurn(history, offered);
  const runTests = offered.includes('run_tests')
    ? { name: 'run_tests', input: {} }
    : { name: 'run_command', input: { command: 'npm test' } };
  const last = history[history.length - 1];
  const edit = history.find((s) => s.name === 'edit_file');
  if (!last) return { text: chunkText(say.start, 12), toolCalls: [runTests] };
  if (edit && (edit.isError || /reject/i.test(edit.result)) && last === edit) return { text: chunkText(say.gaveUp, 12) };
  if (isTestRun(last)) {
    if (!edit && testsPassed(last)) return { text: chunkText(say.alreadyPass, 12) };
    if (!edit) return { text: chunkText(say.read, 12), toolCalls: [{ name: 'read_file', input: { path: 'src/price.js' } }] };
    return { text: chunkText(testsPassed(last) ? say.done : say.stillFail, 12) };
  }
  switch (last.name) {
    // The plan (written in Plan mode, after the read) was approved: carry it out.
    case 'todo_write':
    case 'read_file':
      return {
        text: chunkText(say.edit, 12),
        toolCalls: [{ name: 'edit_file', input: { path: 'src/price.js', edits: [{ search: bugLine, replace: fixLine }] } }],
      };
    case 'edit_file':
      return { text: chunkText(say.rerun, 12), toolCalls: [runTests] };
    default:
      return { text: [`Unexpected tool ${last.name}.`] };
  }
}

/** Plan mode, Ask mode or an agent without edit_file: read the file, then plan (todo_write) or explain. */
function readOnlyTurn(history: ToolStep[], offered: string[]): WireTurn {
  const read = history.find((s) => s.name === 'read_file' && !s.isError);
  if (!read && offered.includes('read_file'))
    return { text: chunkText(say.readOnly, 12), toolCalls: [{ name: 'read_file', input: { path: 'src/price.js' } }] };
  if (offered.includes('todo_write') && !history.some((s) => s.name === 'todo_write'))
    return { text: chunkText(say.planning, 12), toolCalls: [{ name: 'todo_write', input: { todos: PLAN } }] };
  if (offered.includes('todo_write')) return { text: chunkText(say.planned, 12) };
  return { text: chunkText(read ? say.explained : say.cannot, 12) };
}

export interface StreamPace {
  /** Bytes per write and the pause after each, to make the stream visibly slow. */
  chunkBytes: number;
  pauseMs: number;
}

/** A Reply streaming `turn` in the asking API's wire format, optionally slowly. */
export function streamed(req: RecordedRequest, turn: WireTurn, pace?: StreamPace): Reply {
  const body = req.api === 'openai' ? openaiSse(turn) : anthropicSse(turn);
  return pace ? { type: 'stream', body, chunks: pace.chunkBytes, pauseMs: pace.pauseMs } : { type: 'stream', body };
}

/**
 * The demo of `npm start -- --stand-in`: the bug fix, its first reply of a task saying that it is a
 * scripted stand-in of one task.
 */
export function standInModel(): Responder {
  return fixerModel((req) => {
    if (req.api === 'unknown' || toolHistory(req).length > 0) return undefined;
    const turn = fixerTurn(req);
    return streamed(req, { ...turn, text: [STAND_IN_INTRO, ...(turn.text ?? [])] });
  });
}

/** Plays the bug fix; `override` may answer a request differently (return undefined to pass). */
export function fixerModel(override?: (req: RecordedRequest, index: number) => Reply | undefined): Responder {
  return (req, index) => {
    if (req.api === 'unknown') return { type: 'json', status: 404, body: { error: 'not a model endpoint' } };
    return override?.(req, index) ?? streamed(req, fixerTurn(req));
  };
}

/** The text of every message of a request, to assert on what the model was shown. */
export function requestText(req: RecordedRequest): string {
  return JSON.stringify(req.body?.messages ?? []);
}
