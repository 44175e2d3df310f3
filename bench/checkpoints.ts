// Checkpoint and replay figures (issue 13): on a generated 20,000-file workspace, the cost of a
// step's checkpoint that touches 3 files (capture before, hashes after), of a command step
// (incremental scan before and after, the first full scan reported apart), of restoring those
// 3 files, the store's disk use per MiB of changed content (blobs are stored once), and the
// replay time per step of the corpus's recorded fix. Medians; writes bench/results/checkpoints.json.
import * as fs from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import { replayLog, type ReplayPolicySettings } from '../src/compose/replay/replay.js';
import { NodeCheckpointStore } from '../src/node/checkpoint-store.js';
import { loadLog } from '../src/node/jsonl-store.js';

const FILES = 20_000;
const RUNS = 9;
/** The corpus fix was recorded under --approve all. */
const REPLAY_POLICY: ReplayPolicySettings = {
  autoApprove: ['read', 'write', 'execute', 'network'],
  approveUnclassified: true,
  commandsAllow: [],
  commandsDeny: [],
};
const TOUCHED = ['d0/f0.txt', 'd77/f13.txt', 'd199/f99.txt'];

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return Number(s[Math.floor(s.length / 2)]!.toFixed(2));
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

function generate(root: string): void {
  for (let d = 0; d < FILES / 100; d++) {
    fs.mkdirSync(path.join(root, `d${d}`), { recursive: true });
    for (let f = 0; f < 100; f++) fs.writeFileSync(path.join(root, `d${d}`, `f${f}.txt`), `file ${d}/${f}\n${'x'.repeat(1000)}\n`);
  }
}

function touch(root: string, run: number): void {
  for (const rel of TOUCHED) fs.appendFileSync(path.join(root, rel), `step ${run}\n`);
}

function storeBytes(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) total += fs.statSync(path.join(entry.parentPath, entry.name)).size;
  return total;
}

async function main(): Promise<void> {
  const scratch = fs.mkdtempSync(path.join(tmpdir(), 'keel-bench-cp-'));
  try {
    const root = path.join(scratch, 'ws');
    generate(root);
    const store = new NodeCheckpointStore({ storageDir: path.join(scratch, 'storage'), workspaceRoot: root, taskId: 'bench' });

    const editStep: number[] = [];
    const restore: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      let captured: Awaited<ReturnType<typeof store.capture>> = [];
      editStep.push(await time(async () => (captured = await store.capture(TOUCHED))));
      touch(root, run);
      editStep[run]! += await time(() => store.hashes(TOUCHED));
      const targets = captured.map((f) => ({ path: f.path, hash: f.before, expected: null as string | null }));
      const now = await store.hashes(TOUCHED);
      for (const t of targets) t.expected = now[t.path] ?? null;
      restore.push(await time(() => store.restore(targets)));
    }

    const firstScanMs = await time(() => store.snapshot());
    const commandStep: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      commandStep.push(
        await time(async () => {
          const before = await store.snapshot();
          touch(root, run + RUNS);
          await store.changedSince(before);
        }),
      );
    }

    // 1 MiB of new content in 4 files, captured by three steps (the same bytes each time).
    const diskStore = new NodeCheckpointStore({ storageDir: path.join(scratch, 'disk'), workspaceRoot: root, taskId: 'disk' });
    const big = ['big/a.bin', 'big/b.bin', 'big/c.bin', 'big/d.bin'];
    fs.mkdirSync(path.join(root, 'big'));
    for (const [i, rel] of big.entries()) fs.writeFileSync(path.join(root, rel), Buffer.alloc(256 * 1024, i + 1));
    for (let step = 0; step < 3; step++) await diskStore.capture(big);
    const diskBytesPer1MiBChanged = storeBytes(diskStore.dir);

    const corpus = path.resolve(__dirname, '../test/replay');
    const events = loadLog(path.join(corpus, 'failing-tests-fix.jsonl')).events;
    const replayRuns: number[] = [];
    let steps = 1;
    for (let run = 0; run < 3; run++) {
      const ws = path.join(scratch, `replay-${run}`);
      fs.cpSync(path.resolve(__dirname, '../examples/failing-tests'), ws, { recursive: true });
      replayRuns.push(await time(async () => (steps = (await replayLog(events, ws, Number.POSITIVE_INFINITY, REPLAY_POLICY)).steps)));
    }

    const load = loadavg().map((x) => Number(x.toFixed(2)));
    const result = {
      checkpointMsPerStep: median(editStep),
      checkpointMsPerCommandStep: median(commandStep),
      firstScanMs: Number(firstScanMs.toFixed(2)),
      restoreMs: median(restore),
      diskBytesPer1MiBChanged,
      replayMsPerStep: Number((median(replayRuns) / steps).toFixed(2)),
      targets: { checkpointMsPerStep: 50, restoreMs: 100, diskBytesPer1MiBChanged: 1.1 * 1024 * 1024 },
      files: FILES,
      runs: RUNS,
      loadavg: load,
    };
    const lines = [
      `${FILES} files, a step touching ${TOUCHED.length}: checkpoint ${result.checkpointMsPerStep} ms (target ≤ 50), command step (scan before and after) ${result.checkpointMsPerCommandStep} ms, first scan ${result.firstScanMs} ms`,
      `restore ${TOUCHED.length} files: ${result.restoreMs} ms (target ≤ 100)`,
      `disk per 1 MiB changed, captured by 3 steps: ${diskBytesPer1MiBChanged} bytes (target ≤ ${1.1 * 1024 * 1024})`,
      `replay of the corpus fix: ${result.replayMsPerStep} ms per step (${steps} steps)`,
      `medians of ${RUNS} runs — load average ${load.join(' ')}`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    fs.mkdirSync('bench/results', { recursive: true });
    fs.writeFileSync('bench/results/checkpoints.json', `${JSON.stringify(result, null, 2)}\n`);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

void main();
