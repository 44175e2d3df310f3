// Composition benchmark: whether an open to-do list survives a fold, and three read-only sub-agents exploring a generated repository, run in
// parallel (one turn's delegate calls side by side) and one after another (the same script at
// maxParallel 1), with a stand-in model that takes 200 ms per turn. Each measurement is a named
// entry of MEASUREMENTS (the MCP call overhead joins them); their keys are merged into
// bench/results/compose.json with the load average.
import * as fs from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import { composeRegistry } from '../src/compose/index.js';
import { Runtime, type ModelEvent, type ModelRequest } from '../src/kernel/index.js';
import { createNodeWorkspace } from '../src/node/node-workspace.js';
import { ScriptedProvider, textTurn, toolTurn } from '../src/providers/scripted.js';
import { searchByWalking } from '../src/tools/index.js';
import { measureMcpCallOverheadMs } from './mcp-call.js';
import { todoCarriedAcrossFolds } from './todo-fold.js';
import { measureHookOverhead } from './hook-overhead.js';

interface Measurement {
  name: string;
  /** Figures to print and to merge into the JSON (each key once across measurements). */
  run(): Promise<Record<string, number | string | boolean>>;
}

const TURN_MS = 200;
const RUNS = 3;
const AREAS = ['api', 'core', 'ui'];
const TARGET_RATIO = 0.5;

/** A repository of three areas, each a few folders of small source files. */
function generateRepo(): string {
  const root = fs.mkdtempSync(path.join(tmpdir(), 'keel-bench-compose-'));
  for (const area of AREAS) {
    for (let d = 0; d < 5; d++) {
      const dir = path.join(root, 'src', area, `mod${d}`);
      fs.mkdirSync(dir, { recursive: true });
      for (let f = 0; f < 20; f++) fs.writeFileSync(path.join(dir, `file${f}.ts`), `export const ${area}${d}_${f} = ${f};\n`.repeat(20));
    }
  }
  return root;
}

/** The stand-in model: each turn waits TURN_MS, then plays the asking agent's next step. */
function standInTurn(request: ModelRequest): ModelEvent[] | AsyncIterable<ModelEvent> {
  const first = request.messages.find((m) => m.role === 'user');
  const brief = first?.role === 'user' ? first.text : '';
  const step = request.messages.filter((m) => m.role === 'assistant').length;
  const area = AREAS.find((a) => brief.startsWith(`Explore src/${a}`));
  let events: ModelEvent[];
  if (!area) {
    events =
      step === 0
        ? [
            ...AREAS.map(
              (a, i): ModelEvent => ({
                type: 'tool_intent',
                providerRef: `d${i}`,
                tool: 'delegate',
                input: { task: `Explore src/${a} and say what it holds.` },
              }),
            ),
            { type: 'final', stopReason: 'tool_intent' },
          ]
        : textTurn('The three areas are mapped.');
  } else if (step === 0) events = toolTurn('list_files', { path: `src/${area}`, recursive: true });
  else if (step === 1) events = toolTurn('read_file', { path: `src/${area}/mod0/file0.ts` });
  else events = textTurn(`src/${area} holds 5 modules of 20 files.`);
  return (async function* () {
    await new Promise((r) => setTimeout(r, TURN_MS));
    yield* events;
  })();
}

async function exploreOnce(root: string, maxParallel: number): Promise<number> {
  const workspace = await createNodeWorkspace(root, { fallbackSearch: searchByWalking });
  const runtime = new Runtime({
    provider: new ScriptedProvider((request) => standInTurn(request)),
    registry: composeRegistry(workspace),
    workspace,
    maxParallel,
  });
  const started = performance.now();
  for await (const _ of runtime.send('Map the repository.')) {
    // drained: the run ends by itself (everything here is read-only, nothing asks)
  }
  const ms = performance.now() - started;
  const frames = Object.values(runtime.getState().frames);
  if (runtime.getState().status !== 'completed' || frames.length !== 3 || frames.some((f) => f.state.status !== 'completed'))
    throw new Error('the exploration did not complete as scripted');
  return ms;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const parallelChildren: Measurement = {
  name: 'three read-only sub-agents, parallel vs one after another',
  async run() {
    const root = generateRepo();
    try {
      const parallel: number[] = [];
      const serial: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        parallel.push(await exploreOnce(root, 4));
        serial.push(await exploreOnce(root, 1));
      }
      const parallelMs = Math.round(median(parallel));
      const serialMs = Math.round(median(serial));
      return { parallelOverSerial: Number((parallelMs / serialMs).toFixed(3)), parallelMs, serialMs, turnMs: TURN_MS };
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  },
};

/** A no-op stdio MCP tool call (bench/mcp-call.ts; target ≤ 5 ms). */
const mcpCall: Measurement = {
  name: 'no-op stdio MCP call, median ms',
  run: async () => ({ mcpCallOverheadMs: await measureMcpCallOverheadMs() }),
};

/** A task's open to-do items survive a real fold into the projected request (bench/todo-fold.ts). */
const todoFold: Measurement = {
  name: 'open to-do list carried across a fold',
  run: async () => ({ todoCarriedAcrossFolds: await todoCarriedAcrossFolds() }),
};

/** A trivial PreToolUse hook per tool call (and a Pre + Post pair), against the same run without (bench/hook-overhead.ts; target ≤ 30 ms). */
const hookOverhead: Measurement = {
  name: 'a trivial hook per tool call (and a PreToolUse + PostToolUse pair), added ms per call',
  run: async () => ({ ...(await measureHookOverhead()) }),
};

const MEASUREMENTS: Measurement[] = [parallelChildren, mcpCall, todoFold, hookOverhead];

async function main(): Promise<void> {
  const out: Record<string, unknown> = {};
  for (const m of MEASUREMENTS) {
    const figures = await m.run();
    console.log(
      `${m.name}: ${Object.entries(figures)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
    );
    Object.assign(out, figures);
  }
  const load = loadavg().map((x) => Number(x.toFixed(2)));
  console.log(`target parallelOverSerial ≤ ${TARGET_RATIO} (median of ${RUNS}); load average ${load.join(' ')}`);
  fs.mkdirSync('bench/results', { recursive: true });
  const file = 'bench/results/compose.json';
  // Another measurement run on its own keeps the figures already written.
  const before = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  fs.writeFileSync(
    file,
    `${JSON.stringify({ ...before, ...out, targetParallelOverSerial: TARGET_RATIO, runs: RUNS, loadavg: load }, null, 2)}\n`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
