// Jobs for the fleet tests and bench: a tiny workspace, and a JSONL line per job whose task names
// its kind for the stand-in (test/support/fleet-model.ts); "over" jobs get a small cost cap.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { scratchDir } from './scratch.js';

export function tinyWorkspace(): string {
  const dir = scratchDir('fleet-src');
  fs.writeFileSync(path.join(dir, 'README.md'), '# a tiny project\n');
  return dir;
}

export function jobLines(workspace: string, kinds: readonly string[]): string {
  return kinds
    .map((kind, i) => {
      const id = `job-${i + 1}`;
      const budget = kind === 'over' ? { usd: 0.5 } : {};
      return JSON.stringify({ id, workspace, task: `${id} [${kind}] write the answer`, approve: ['read', 'write'], budget });
    })
    .join('\n');
}
