// What the verify loop's processes cost: from start_process's call to the server's first output
// (a node:http server printing its port, through Keel's shell, process group and keeper), and a
// warm browser_check of its page (a fresh headless Chromium per check: launch, load, text, screenshot,
// close). Medians over RUNS runs after a warm-up, with the load average. measureProcesses is
// exported for bench:verify to combine; run alone it writes bench/results/verify-processes.json.
//
//   npm run bench:verify-processes
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import { createBackgroundProcesses } from '../src/node/background-processes.js';
import { createBrowserChecker } from '../src/node/browser/browser-checker.js';
import { findChromium } from '../src/node/browser/find-chromium.js';
import { createNodeWorkspace } from '../src/node/node-workspace.js';
import { median, round, writeResults } from './report.js';

const RUNS = 5;
const SERVER = `
const s = require('node:http').createServer((q, r) => r.end('<title>bench</title><h1>hello</h1>'));
s.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + s.address().port + '/'));
`;

async function timed(runs: number, run: () => Promise<unknown>): Promise<number> {
  await run();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await run();
    times.push(performance.now() - t);
  }
  return round(median(times), 1);
}

export async function measureProcesses(): Promise<{ processStartToFirstOutputMs: number; browserCheckMs: number }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'keel-bench-procs-'));
  writeFileSync(path.join(dir, 'server.js'), SERVER);
  const ws = await createNodeWorkspace(dir);
  const table = createBackgroundProcesses(ws);
  const signal = new AbortController().signal;
  try {
    let port = 0;
    const starts: number[] = [];
    for (let i = 0; i <= RUNS; i++) {
      const t = performance.now();
      const started = await table.start({ name: `web${i}`, command: 'node server.js' }, { settleMs: 30_000, signal });
      // The server's first output is the line with its port: start answers as it arrives.
      if (i > 0) starts.push(performance.now() - t);
      if (started.info.outputChars === 0) throw new Error(`no output from the server: ${started.info.problem ?? ''}`);
      port = started.info.ports[0] ?? 0;
      if (i < RUNS) await table.stop(`web${i}`);
    }
    const processStartToFirstOutputMs = round(median(starts), 1);
    if (!(await findChromium())) throw new Error('no Chromium on this machine (apt-get install chromium)');
    const browser = createBrowserChecker({ allowHosts: () => [] });
    const browserCheckMs = await timed(RUNS, () =>
      browser.check({ url: `http://127.0.0.1:${port}/`, steps: [], timeoutMs: 30_000, view: 'text', maxTextChars: 6000 }, signal),
    );
    return { processStartToFirstOutputMs, browserCheckMs };
  } finally {
    await table.stopAll();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const figures = await measureProcesses();
  const load = loadavg().map((x) => round(x, 2));
  const file = writeResults('verify-processes', { runs: RUNS, ...figures, loadavg: load });
  console.log(`median of ${RUNS} warm runs (load average ${load.join(' ')}):`);
  console.log(`  start_process → first output  ${figures.processStartToFirstOutputMs} ms`);
  console.log(`  browser_check (fresh browser) ${figures.browserCheckMs} ms  (target ≤ 3000 ms warm)`);
  console.log(`→ ${file}`);
}

if (require.main === module) void main();
