// The stand-in model of the fleet tests and bench: each job's task names what the job does —
// "[pass]" writes a file and ends, "[fail]" meets a model error, "[over]" reports a turn so large
// it passes any small cost cap — and every answer takes `replyMs`, so the model's time dominates.
// It counts requests in flight, so a test can check the fleet's shared limit held.
import type { RecordedRequest, Reply, Responder } from './model-server.js';
import { anthropicSse } from './anthropic-wire.js';

export interface FleetModel {
  respond: Responder;
  /** The most requests the stand-in had in flight at once. */
  readonly maxInFlight: number;
  readonly inFlight: number;
}

export function fleetModel(replyMs: number): FleetModel {
  let inFlight = 0;
  let maxInFlight = 0;
  const respond: Responder = async (req) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    void req.closed.then(() => inFlight--);
    await new Promise((r) => setTimeout(r, replyMs));
    return turnFor(req);
  };
  return {
    respond,
    get maxInFlight() {
      return maxInFlight;
    },
    get inFlight() {
      return inFlight;
    },
  };
}

function turnFor(req: RecordedRequest): Reply {
  const text = JSON.stringify(req.body?.messages ?? []);
  const job = /job-(\d+)/.exec(text)?.[0] ?? 'job';
  const wrote = text.includes('tool_result');
  if (text.includes('[fail]'))
    return {
      type: 'json',
      status: 400,
      body: { type: 'error', error: { type: 'invalid_request_error', message: `${job} cannot be done` } },
    };
  if (text.includes('[over]'))
    return stream({ text: ['Thinking hard.'], toolCalls: [{ name: 'list_files', input: {} }], usage: { input: 1_000_000, output: 10 } });
  if (!wrote)
    return stream({
      text: [`Writing the answer for ${job}.`],
      toolCalls: [{ name: 'write_file', input: { path: 'answer.txt', content: `${job}\n` } }],
    });
  return stream({ text: [`${job} is done.`] });
}

function stream(turn: Parameters<typeof anthropicSse>[0]): Reply {
  return { type: 'stream', body: anthropicSse(turn) };
}
