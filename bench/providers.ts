// Provider throughput: 1 MiB (and 64 KiB) of text streamed as one text delta per 1 or 64
// bytes, from the model stand-in through the real SDK, the adapter and the kernel (EventLog +
// reducer), against bare iteration of the same SDK stream. The stand-in runs in a child
// process so that only the client side is timed. Run: npm run bench:providers
//
// Note: the SDKs make the requests, but the adapters decode the response bodies themselves
// (src/providers/sse.ts), a network read at a time, and hand the kernel one text delta per
// read (a read's adjacent deltas joined). "Bare SDK" is still the SDK's own Stream, iterated
// event by event; the overhead compares the whole path against it and can be negative.
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import {
  applyEvent,
  EventLog,
  initialState,
  type ModelEvent,
  type ModelProvider,
  type ModelRequest,
  type RuntimeEventInput,
} from '../src/kernel/index.js';
import { createAnthropicProvider } from '../src/providers/anthropic.js';
import { createOpenAIProvider } from '../src/providers/openai.js';
import { sseBatches } from '../src/providers/sse.js';
import { anthropicSse } from '../test/support/anthropic-wire.js';
import { startModelServer } from '../test/support/model-server.js';
import { chunkText } from '../test/support/model-turn.js';
import { openaiSse } from '../test/support/openai-wire.js';
import { median, round, writeResults } from './report.js';

type Vendor = 'anthropic' | 'openai';
const KiB = 1024;
const MiB = 1024 * KiB;
const RUNS = Number(process.env.RUNS ?? 5);

/** Scenario in the user text: "vendor chunkBytes totalBytes". */
const scenario = (vendor: Vendor, chunk: number, total: number) => `${vendor} ${chunk} ${total}`;

/** Text without JSON escapes, so every event's size is predictable. */
function text(total: number): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789.,;:-';
  let s = '';
  while (s.length < total) s += alphabet;
  return s.slice(0, total);
}

/** The child: serves every scenario's stream, built once and kept. */
async function serve(): Promise<void> {
  const bodies = new Map<string, Buffer>();
  const server = await startModelServer((req) => {
    const key: string = req.body.messages.at(-1).content.at?.(-1)?.text ?? req.body.messages.at(-1).content;
    let body = bodies.get(key);
    if (!body) {
      const [vendor, chunk, total] = key.split(' ');
      const turn = { text: chunkText(text(Number(total)), Number(chunk)), model: 'bench' };
      body = Buffer.from(vendor === 'openai' ? openaiSse(turn) : anthropicSse(turn));
      bodies.set(key, body);
    }
    return { type: 'stream', body };
  });
  console.log(server.url);
}

function request(key: string): ModelRequest {
  return { system: '', messages: [{ role: 'user', text: key }], tools: [] };
}

interface Timing {
  wallMs: number;
  /** This process's CPU time (user + system): less at the mercy of a shared, busy machine. */
  cpuMs: number;
}

async function timed(work: () => Promise<void>): Promise<Timing> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  await work();
  const wallMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { wallMs, cpuMs: (used.user + used.system) / 1000 };
}

/** Bare SDK: iterate the raw stream and do nothing with it. */
async function bare(vendor: Vendor, url: string, key: string): Promise<void> {
  let n = 0;
  if (vendor === 'anthropic') {
    const client = new Anthropic({ baseURL: url, apiKey: 'bench', maxRetries: 0 });
    const stream = await client.messages.create({
      model: 'bench',
      max_tokens: 1024,
      stream: true,
      messages: [{ role: 'user', content: key }],
    });
    for await (const _ of stream) n++;
  } else {
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: 'bench', maxRetries: 0 });
    const stream = await client.chat.completions.create({
      model: 'bench',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: key }],
    });
    for await (const _ of stream) n++;
  }
  if (n < 3) throw new Error('bare stream broke');
}

function toRuntimeEvent(e: ModelEvent): RuntimeEventInput | undefined {
  switch (e.type) {
    case 'text_delta':
    case 'reasoning_delta':
      // As the kernel's loop does: a literal with every field the log stamps.
      return { type: e.type, text: e.text, seq: 0, runId: '', time: 0 } as RuntimeEventInput;
    case 'usage':
      return e;
    case 'final':
      return { type: 'model_final', stopReason: e.stopReason };
    case 'error':
      return { type: 'model_error', error: e.error };
    default:
      return undefined;
  }
}

/** Adapter + kernel: every ModelEvent appended to an EventLog and folded by the reducer. */
async function throughKernel(provider: ModelProvider, key: string, expected: number): Promise<void> {
  const log = new EventLog();
  let state = initialState();
  log.subscribe((event) => (state = applyEvent(state, event)));
  log.append({ type: 'turn_started', turn: 1 }, 'bench');
  for await (const e of provider.stream(request(key), new AbortController().signal)) {
    const input = toRuntimeEvent(e);
    if (input) log.append(input, 'bench');
  }
  const last = state.messages.at(-1);
  if (last?.type !== 'assistant' || last.text.length !== expected)
    throw new Error(`adapter stream broke: ${JSON.stringify(state.lastError)}`);
}

function providerFor(vendor: Vendor, url: string): ModelProvider {
  return vendor === 'anthropic'
    ? createAnthropicProvider({ baseURL: url, apiKey: 'bench', model: 'bench', retry: { maxAttempts: 1 } })
    : createOpenAIProvider({ baseURL: `${url}/v1`, apiKey: 'bench', model: 'bench', retry: { maxAttempts: 1 } });
}

interface Figures {
  bare: Timing;
  adapter: Timing;
  kernel: Timing;
}

/** The adapter alone: every ModelEvent consumed, nothing done with it. */
async function adapterOnly(provider: ModelProvider, key: string): Promise<void> {
  let n = 0;
  for await (const e of provider.stream(request(key), new AbortController().signal)) if (e.type === 'text_delta') n++;
  if (n < 3) throw new Error('adapter stream broke');
}

const pct = (a: number, b: number) => ((a - b) / b) * 100;

/** Medians of interleaved runs of both paths, after a warm-up of each. */
async function measure(vendor: Vendor, url: string, chunk: number, total: number): Promise<Figures> {
  const key = scenario(vendor, chunk, total);
  const provider = providerFor(vendor, url);
  const runs = total >= MiB && chunk === 1 ? Math.max(3, Math.ceil(RUNS / 2)) : RUNS;
  await bare(vendor, url, key);
  await throughKernel(provider, key, total);
  await adapterOnly(provider, key);
  const bareRuns: Timing[] = [];
  const adapterRuns: Timing[] = [];
  const kernelRuns: Timing[] = [];
  for (let i = 0; i < runs; i++) {
    bareRuns.push(await timed(() => bare(vendor, url, key)));
    adapterRuns.push(await timed(() => adapterOnly(provider, key)));
    kernelRuns.push(await timed(() => throughKernel(provider, key, total)));
  }
  const med = (ts: Timing[]): Timing => ({ wallMs: median(ts.map((t) => t.wallMs)), cpuMs: median(ts.map((t) => t.cpuMs)) });
  const f = { bare: med(bareRuns), adapter: med(adapterRuns), kernel: med(kernelRuns) };
  console.log(
    `${vendor.padEnd(9)} ${String(chunk).padStart(2)}-byte deltas, ${String(total / KiB).padStart(4)} KiB (${runs} runs): ` +
      `bare SDK ${f.bare.wallMs.toFixed(1)} ms (cpu ${f.bare.cpuMs.toFixed(1)}), ` +
      `adapter ${f.adapter.wallMs.toFixed(1)} ms (cpu ${f.adapter.cpuMs.toFixed(1)}), ` +
      `adapter+kernel ${f.kernel.wallMs.toFixed(1)} ms (cpu ${f.kernel.cpuMs.toFixed(1)}): ` +
      `+${pct(f.kernel.wallMs, f.bare.wallMs).toFixed(1)}% wall, +${pct(f.kernel.cpuMs, f.bare.cpuMs).toFixed(1)}% cpu`,
  );
  return f;
}

async function startChild(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, ['--import=tsx', __filename, '--serve'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`stand-in exited with ${code}`)));
  });
  return { url: line.trim(), stop: () => child.kill() };
}

interface Scenarios {
  f64: Figures;
  f64small: Figures;
  f1: Figures;
  f1small: Figures;
}

/**
 * The figures for one vendor. Ratios and overheads use this process's CPU time: on a shared,
 * oversubscribed machine wall time mostly measures the scheduler. Wall figures are kept too.
 */
function summarize(vendor: Vendor, { f64, f64small, f1, f1small }: Scenarios): Record<string, number> {
  const ratio = (big: Figures, small: Figures, path: 'kernel' | 'bare', t: keyof Timing) => big[path][t] / small[path][t];
  const r64 = ratio(f64, f64small, 'kernel', 'cpuMs');
  const r1 = ratio(f1, f1small, 'kernel', 'cpuMs');
  console.log(
    `${vendor}: 1 MiB / 64 KiB time ratio (cpu) ${r64.toFixed(1)} with 64-byte deltas, ${r1.toFixed(1)} with 1-byte ` +
      `(bare SDK ${ratio(f1, f1small, 'bare', 'cpuMs').toFixed(1)}); 16 is linear`,
  );
  return {
    [`${vendor}MiBps`]: round(1000 / f64.kernel.wallMs, 2),
    [`${vendor}MiBpsCpu`]: round(1000 / f64.kernel.cpuMs, 2),
    [`${vendor}MiBps1Byte`]: round(1000 / f1.kernel.wallMs, 3),
    // The worse of the two delta sizes: O(reply) work per delta would show in either.
    [`${vendor}Ratio1MiBto64KiB`]: round(Math.max(r64, r1), 2),
    [`${vendor}Ratio1MiBto64KiB64Byte`]: round(r64, 2),
    [`${vendor}Ratio1MiBto64KiB1Byte`]: round(r1, 2),
    [`${vendor}Ratio1MiBto64KiBWall`]: round(Math.max(ratio(f64, f64small, 'kernel', 'wallMs'), ratio(f1, f1small, 'kernel', 'wallMs')), 2),
    [`${vendor}BareSdkRatio1Byte`]: round(ratio(f1, f1small, 'bare', 'cpuMs'), 2),
    [`${vendor}OverheadPct`]: round(pct(f64.kernel.cpuMs, f64.bare.cpuMs), 1),
    [`${vendor}OverheadPctWall`]: round(pct(f64.kernel.wallMs, f64.bare.wallMs), 1),
    [`${vendor}AdapterOnlyOverheadPct`]: round(pct(f64.adapter.cpuMs, f64.bare.cpuMs), 1),
    [`${vendor}OverheadPct1Byte`]: round(pct(f1.kernel.cpuMs, f1.bare.cpuMs), 1),
  };
}

/** A body that hands out one piece per read, as a socket would. */
function pieces(parts: string[]): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  let i = 0;
  return new ReadableStream({
    pull: (c) => (i < parts.length ? c.enqueue(enc.encode(parts[i++])) : c.close()),
  });
}

/**
 * The SSE decoder alone, 64,000 events against 2,000, in two shapes: a burst of events in one
 * read, and one long line arriving in 100-byte reads. Linear is 32; a decoder that rescans its
 * buffer per event or per read is ~1000. (The unit test counts the decoder's work instead.)
 */
async function sseLinearity(): Promise<Record<string, number>> {
  const one = 'data: {"choices":[{"delta":{"content":"x"}}]}\n\n';
  const shapes = {
    burst: (events: number) => [one.repeat(events)],
    longLine: (events: number) => {
      const line = `data: ${'y'.repeat(events * 40)}\n\n`;
      return Array.from({ length: Math.ceil(line.length / 100) }, (_, i) => line.slice(i * 100, i * 100 + 100));
    },
  };
  const results: Record<string, number> = {};
  for (const [name, shape] of Object.entries(shapes)) {
    const cpu = async (events: number) => {
      const runs: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const body = pieces(shape(events));
        runs.push(
          (
            await timed(async () => {
              for await (const _ of sseBatches(body));
            })
          ).cpuMs,
        );
      }
      return median(runs);
    };
    await cpu(2000);
    const ratio = (await cpu(64_000)) / (await cpu(2000));
    console.log(`SSE decoder, ${name}: 32× the bytes took ${ratio.toFixed(1)}× the CPU time (32 is linear)`);
    results[`sse${name[0]!.toUpperCase()}${name.slice(1)}Ratio64kTo2k`] = round(ratio, 2);
  }
  return results;
}

async function main(): Promise<void> {
  const { url, stop } = await startChild();
  try {
    const results: Record<string, number | string> = await sseLinearity();
    for (const vendor of ['anthropic', 'openai'] as const) {
      const scenarios: Scenarios = {
        f64: await measure(vendor, url, 64, MiB),
        f64small: await measure(vendor, url, 64, 64 * KiB),
        f1: await measure(vendor, url, 1, MiB),
        f1small: await measure(vendor, url, 1, 64 * KiB),
      };
      Object.assign(results, summarize(vendor, scenarios));
    }
    // 64-byte deltas, adapter + kernel over bare SDK iteration of the same stream.
    results.adapterOverheadPct = Math.max(results.anthropicOverheadPct as number, results.openaiOverheadPct as number);
    results.runs = RUNS;
    results.timing = 'medians; ratios and overheads in process CPU time (user+system), *Wall keys in wall-clock time';
    console.log(JSON.stringify(results, null, 2));
    console.log(`written to ${writeResults('providers', results)}`);
  } finally {
    stop();
  }
}

if (process.argv.includes('--serve')) void serve();
else
  main().catch((e) => {
    console.error(e);
    process.exitCode = 1;
  });
