// bench:codeintel's start-up figures: `keel run --provider scripted` in fresh processes
// (first-request.ts), each run timed to its first model request. Cold: a config folder with no
// cache (the index has never seen the workspace); warm: the same folder after a first run left
// its cache, so the run is a user's second one. Cold and warm runs are interleaved, as the
// machine's load drifts.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { scratchDir } from '../../test/support/scratch.js';
import { median, round } from '../report.js';
import type { FirstRequest } from './first-request.js';

const CHILD = path.join(__dirname, 'first-request.ts');

function firstRequest(root: string, configHome: string, task: string): FirstRequest {
  const env = { ...process.env, XDG_CONFIG_HOME: configHome };
  const child = spawnSync(process.execPath, [...process.execArgv, CHILD, root, task], { encoding: 'utf8', env });
  if (child.status !== 0) throw new Error(`keel run failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').pop()!) as FirstRequest;
}

export interface StartTimes {
  coldFirstRequestMs: number;
  warmStartMs: number;
  coldFirstRequestCpuMs: number;
  warmStartCpuMs: number;
  /** Runs whose first request went without the map (the map came a later turn). */
  coldMapPending: number;
  warmMapPending: number;
  coldRunMs: number;
  runs: number;
}

export function startTimes(root: string, task: string, runs: number): StartTimes {
  const cold: FirstRequest[] = [];
  const warm: FirstRequest[] = [];
  for (let i = 0; i < runs; i++) {
    const home = scratchDir('bench-start-cfg');
    cold.push(firstRequest(root, home, task));
    warm.push(firstRequest(root, home, task));
  }
  const ms = (list: FirstRequest[], key: 'firstRequestMs' | 'firstRequestCpuMs' | 'runMs') => round(median(list.map((r) => r[key])), 0);
  return {
    coldFirstRequestMs: ms(cold, 'firstRequestMs'),
    warmStartMs: ms(warm, 'firstRequestMs'),
    coldFirstRequestCpuMs: ms(cold, 'firstRequestCpuMs'),
    warmStartCpuMs: ms(warm, 'firstRequestCpuMs'),
    coldMapPending: cold.filter((r) => r.mapPending).length,
    warmMapPending: warm.filter((r) => r.mapPending).length,
    coldRunMs: ms(cold, 'runMs'),
    runs,
  };
}

export function describeStart(s: StartTimes): string {
  return (
    `coldFirstRequestMs ${s.coldFirstRequestMs} (CPU ${s.coldFirstRequestCpuMs} ms; target ≤ 1500; map pending in ${s.coldMapPending}/${s.runs}; the cold run to its end ${s.coldRunMs}), ` +
    `warmStartMs ${s.warmStartMs} (CPU ${s.warmStartCpuMs} ms; target ≤ 1000; map pending in ${s.warmMapPending}/${s.runs}); medians of ${s.runs} keel runs from executeTask to the first request`
  );
}
