// How long `keel --help` takes from the built command (bin/keel.js after `npm run build`): the
// small help bundle alone (dist/cli-help.js) against loading the whole CLI bundle (dist/cli.js,
// what every --help cost before), and a bare `node` for the floor. Target: under 300 ms.
// Run: npm run build && npm run bench:cli-help
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { median, round, writeResults } from './report.js';

const RUNS = Number(process.env.RUNS ?? 5);
const ROOT = path.resolve(__dirname, '..');

/** ms for one fresh `node ARGS…`. */
function once(args: string[]): number {
  const start = performance.now();
  const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8' });
  const ms = performance.now() - start;
  if (r.status !== 0) throw new Error(r.stderr);
  return ms;
}

function medianOf(args: string[]): number {
  return round(median(Array.from({ length: RUNS }, () => once(args))), 1);
}

function main(): void {
  if (!fs.existsSync(path.join(ROOT, 'dist', 'cli-help.js'))) throw new Error('build first: npm run build');
  const figures = {
    runs: RUNS,
    helpMs: medianOf([path.join(ROOT, 'bin', 'keel.js'), '--help']),
    // The whole bundle loaded and asked for --help: the cost before the help bundle.
    wholeBundleHelpMs: medianOf([path.join(ROOT, 'dist', 'cli.js'), '--help']),
    bareNodeMs: medianOf(['-e', '']),
    loadAverage1m: round(os.loadavg()[0]!, 2),
  };
  console.log(figures);
  console.log(`wrote ${writeResults('cli-help', figures)}`);
}

main();
