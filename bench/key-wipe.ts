// What wiping the keys from Keel's own environment block costs at start (src/node/environment-block.ts,
// called first thing by the CLI and the extension host): in fresh processes with a 60-variable
// environment holding a provider key and two tokens, the wipe alone and with the secret detector
// judging every variable, as main.ts does. Run: npm run bench:key-wipe
import { spawnSync } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import { median, round, writeResults } from './report.js';

const RUNS = Number(process.env.RUNS ?? 15);
const ROOT = path.resolve(__dirname, '..');

/** One fresh process: ms for the wipe (judging by name only, or with the detector). */
function once(detector: boolean): number {
  const script = `
    const { performance } = require('node:perf_hooks');
    const { wipeCredentialsFromBlock } = require(${JSON.stringify(path.join(ROOT, 'src/node/environment-block.ts'))});
    const judge = ${detector}
      ? (() => { const d = require(${JSON.stringify(path.join(ROOT, 'src/compose/secrets/detector.ts'))}).secretDetector(); d.inVariable('X', 'y'); return (n, v) => d.inVariable(n, v) !== undefined; })()
      : (n) => n.endsWith('_TOKEN');
    const start = performance.now();
    const outcome = wipeCredentialsFromBlock(judge);
    const ms = performance.now() - start;
    if (outcome.wiped.length !== 3) throw new Error('wiped ' + outcome.wiped.join(','));
    process.stdout.write(String(ms));`;
  const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
  for (let i = 0; i < 57; i++) env[`PLAIN_VARIABLE_${i}`] = `value-${i}-${'x'.repeat(40)}`;
  env.ANTHROPIC_API_KEY = `sk-ant-api03-${'a'.repeat(90)}`;
  env.GITHUB_TOKEN = `ghp_${'b'.repeat(36)}`;
  env.NPM_TOKEN = `npm_${'c'.repeat(36)}`;
  const r = spawnSync(process.execPath, ['--import=tsx', '-e', script], { cwd: ROOT, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return Number(r.stdout);
}

function main(): void {
  const byName = Array.from({ length: RUNS }, () => once(false));
  const withDetector = Array.from({ length: RUNS }, () => once(true));
  const figures = {
    runs: RUNS,
    wipeMs: round(median(byName)),
    wipeWithDetectorMs: round(median(withDetector)),
    loadAverage1m: round(os.loadavg()[0]!, 2),
  };
  console.log(figures);
  console.log(`wrote ${writeResults('key-wipe', figures)}`);
}

main();
