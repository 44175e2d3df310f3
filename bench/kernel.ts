// Kernel throughput: text deltas streamed through log + reducer + facade output, against a
// naive baseline that re-folds the whole log on every event. Run: npm run bench:kernel
import * as os from 'node:os';
import { performance } from 'node:perf_hooks';
import { applyEvent, initialState, Registry, replay, Runtime, type ModelEvent, type RuntimeEvent } from '../src/kernel/index.js';
import { ScriptedProvider } from '../src/providers/scripted.js';
import { median, round, writeResults } from './report.js';

const DELTA_BYTES = Number(process.env.DELTA_BYTES ?? 64);
const filler = 'x'.repeat(DELTA_BYTES - 8);

/** Each delta a distinct flat string, as a provider's JSON parsing would produce. */
function delta(i: number): ModelEvent {
  return { type: 'text_delta', text: JSON.parse(`"${(i % 1e8).toString().padStart(8, '0')}${filler}"`) as string };
}

/** Made on the fly: the heap measurement sees every delta's text arrive during the run. */
async function* deltas(count: number): AsyncIterable<ModelEvent> {
  for (let i = 0; i < count; i++) yield delta(i);
  yield { type: 'final', stopReason: 'stop' };
}

/** Made beforehand: the timed runs measure the kernel, not the making of test data. */
function prepared(count: number): ModelEvent[] {
  const events: ModelEvent[] = new Array(count + 1);
  for (let i = 0; i < count; i++) events[i] = delta(i);
  events[count] = { type: 'final', stopReason: 'stop' };
  return events;
}

/** Streams `count` deltas through a Runtime, consuming its output. Returns µs per event. */
async function streamThroughRuntime(
  count: number,
  onTheFly = false,
): Promise<{ usPerEvent: number; cpuUsPerEvent: number; runtime: Runtime }> {
  const turn = onTheFly ? deltas(count) : prepared(count);
  const runtime = new Runtime({ provider: new ScriptedProvider([turn]), registry: new Registry() });
  const start = performance.now();
  const cpu = process.cpuUsage();
  let seen = 0;
  for await (const out of runtime.send('stream')) if (out.kind === 'event') seen++;
  const elapsed = performance.now() - start;
  const used = process.cpuUsage(cpu);
  if (runtime.getState().status !== 'completed' || seen < count) throw new Error('the run did not complete');
  // CPU time as well as wall time: on a shared, loaded machine wall time mostly measures the queue.
  return { usPerEvent: (elapsed * 1000) / count, cpuUsPerEvent: (used.user + used.system) / count, runtime };
}

/** Events as the runtime logs them: a delta in a child frame carries `frame` after the stamps. */
function loggedDeltas(count: number, frame: string | undefined, firstSeq: number): RuntimeEvent[] {
  const events: RuntimeEvent[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const text = (delta(i) as { text: string }).text;
    const stamped = { type: 'text_delta', text, seq: firstSeq + i, runId: 'r', time: i };
    events[i] = (frame === undefined ? stamped : { ...stamped, frame }) as RuntimeEvent;
  }
  return events;
}

/**
 * The reducer alone, CPU µs per streamed delta: the task's own, and a sub-agent's (the task
 * has `frames` child frames, the last one streaming).
 */
function reducerCpuUsPerDelta(count: number, frames: number): number {
  const head: RuntimeEvent[] = [];
  const add = (e: Record<string, unknown>) => head.push({ ...e, seq: head.length + 1, runId: 'r', time: 0 } as RuntimeEvent);
  add({ type: 'run_started', provider: 'p', model: 'm' });
  add({ type: 'turn_started', turn: 1 });
  for (let f = 0; f < frames; f++) {
    const frame = `frame-${f}`;
    add({ type: 'frame_started', frame, parentIntentId: 'call', depth: 1, task: 't', tools: [], maxTurns: 5 });
    add({ type: 'run_started', frame, provider: 'p', model: 'm' });
    add({ type: 'turn_started', frame, turn: 1 });
  }
  const events = loggedDeltas(count, frames === 0 ? undefined : `frame-${frames - 1}`, head.length + 1);
  const runs: number[] = [];
  for (let r = 0; r < 4; r++) {
    let state = replay(head);
    const cpu = process.cpuUsage();
    for (const event of events) state = applyEvent(state, event);
    const used = process.cpuUsage(cpu);
    if (state.lastSeq !== head.length + count) throw new Error('the reducer lost an event');
    if (r > 0) runs.push((used.user + used.system) / count);
  }
  return median(runs);
}

function gc(): void {
  const g = (globalThis as { gc?: () => void }).gc;
  if (!g) throw new Error('run with --expose-gc');
  g();
  g();
}

async function heapPerTextByte(count: number): Promise<number> {
  gc();
  const before = process.memoryUsage().heapUsed;
  const { runtime } = await streamThroughRuntime(count, true);
  gc();
  const after = process.memoryUsage().heapUsed;
  const textBytes = count * DELTA_BYTES;
  // Keep the runtime reachable past the measurement, or the collector may take it early.
  (globalThis as { keep?: unknown }).keep = runtime;
  console.log(`heap before ${before}, after ${after}`);
  return (after - before) / textBytes;
}

/** The baseline: every event re-folds the whole log from the start. */
function naiveUsPerEvent(count: number): number {
  const log: RuntimeEvent[] = [];
  const start = performance.now();
  let state = initialState();
  for (let i = 0; i < count; i++) {
    log.push({ type: 'text_delta', text: filler, seq: i + 1, runId: 'r', time: i } as RuntimeEvent);
    state = replay(log);
  }
  if (state.lastSeq !== count) throw new Error('baseline broke');
  return ((performance.now() - start) * 1000) / count;
}

function naiveLargest(budgetMs: number): { size: number; usPerEvent: number } {
  let best = { size: 0, usPerEvent: 0 };
  let size = 1_000;
  const deadline = performance.now() + budgetMs;
  for (;;) {
    const started = performance.now();
    const us = naiveUsPerEvent(size);
    const took = performance.now() - started;
    best = { size, usPerEvent: us };
    // Quadratic: doubling the size takes about four times as long.
    if (performance.now() + took * 4.2 > deadline) return best;
    size *= 2;
  }
}

async function main(): Promise<void> {
  // Memory first, in a clean heap; then warm up the JIT and take medians of several runs.
  const heap = await heapPerTextByte(1_000_000);
  (globalThis as { keep?: unknown }).keep = undefined;
  await streamThroughRuntime(200_000);
  const runs100k: number[] = [];
  const cpu100k: number[] = [];
  for (let i = 0; i < 5; i++) {
    const r = await streamThroughRuntime(100_000);
    runs100k.push(r.usPerEvent);
    cpu100k.push(r.cpuUsPerEvent);
  }
  const runs1M: number[] = [];
  const cpu1M: number[] = [];
  for (let i = 0; i < 3; i++) {
    const r = await streamThroughRuntime(1_000_000);
    runs1M.push(r.usPerEvent);
    cpu1M.push(r.cpuUsPerEvent);
  }
  const reducerRoot = reducerCpuUsPerDelta(300_000, 0);
  const reducerFramed = reducerCpuUsPerDelta(300_000, 4);
  const naive = naiveLargest(60_000);
  const incrementalAtNaiveSize = (await streamThroughRuntime(naive.size)).usPerEvent;
  const results = {
    deltaBytes: DELTA_BYTES,
    usPerEvent100k: round(median(runs100k)),
    usPerEvent1M: round(median(runs1M)),
    ratio1Mto100k: round(median(runs1M) / median(runs100k)),
    cpuUsPerEvent100k: round(median(cpu100k)),
    cpuUsPerEvent1M: round(median(cpu1M)),
    reducerCpuUsPerDelta: round(reducerRoot),
    reducerCpuUsPerFramedDelta: round(reducerFramed),
    loadAverage1m: round(os.loadavg()[0]!, 2),
    naiveUsPerEvent: round(naive.usPerEvent),
    naiveSize: naive.size,
    incrementalUsPerEventAtNaiveSize: round(incrementalAtNaiveSize),
    naiveOverIncremental: round(naive.usPerEvent / incrementalAtNaiveSize, 1),
    heapBytesPerTextByte: round(heap),
  };
  console.log(results);
  console.log(`written ${writeResults('kernel', results)}`);
}

void main();
