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
  gaveUp: 'Understood, I will leave src/price.js as it is.',
};

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

/** The next turn of the bug fix, given what has happened so far. */
function fixerTurn(req: RecordedRequest): WireTurn {
  const history = toolHistory(req);
  // Like a real model, use only what is offered: run_tests, else run_command with npm test.
  const runTests = offeredTools(req).includes('run_tests')
    ? { name: 'run_tests', input: {} }
    : { name: 'run_command', input: { command: 'npm test' } };
  const last = history[history.length - 1];
  const edit = history.find((s) => s.name === 'edit_file');
  if (!last) return { text: chunkText(say.start, 12), toolCalls: [runTests] };
  if (edit && (edit.isError || /reject/i.test(edit.result)) && last === edit) return { text: chunkText(say.gaveUp, 12) };
  if (isTestRun(last)) {
    if (!edit) return { text: chunkText(say.read, 12), toolCalls: [{ name: 'read_file', input: { path: 'src/price.js' } }] };
    return { text: chunkText(say.done, 12) };
  }
  switch (last.name) {
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
