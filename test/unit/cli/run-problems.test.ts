// Problems after every edit, headless (issue 38): `keel run` with a scripted model that acts only
// on what it reads. An edit that brings in a type error gets that error in its own observation,
// the fix the model makes next turn reports it gone; the same for a shell script with
// shellcheck. With --no-problems the model is not told, and the error stays.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ModelRequest } from '../../../src/kernel/index.js';
import { ScriptedProvider, textTurn, toolTurn } from '../../../src/providers/scripted.js';
import { fixerScript, type SeededTask } from '../../support/problem-fixer.js';
import { sandboxOrSkip } from '../../support/sandbox.js';
import { scratchDir } from '../../support/scratch.js';
import { runScriptedTask } from '../../support/scripted-task.js';

const REPO_MODULES = path.resolve('node_modules');

function tsProject(name: string): string {
  const ws = path.join(scratchDir(name), 'ws');
  fs.mkdirSync(ws, { recursive: true });
  // No @types: the check reads only the project and TypeScript's own lib.
  fs.writeFileSync(
    path.join(ws, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { strict: true, noEmit: true, types: [] }, include: ['*.ts'] }),
  );
  fs.writeFileSync(path.join(ws, 'count.ts'), 'export function count(items: string[]): number {\n  return items.length;\n}\n');
  fs.writeFileSync(path.join(ws, 'main.ts'), "import { count } from './count';\nexport const total: number = count(['a']);\n");
  fs.symlinkSync(REPO_MODULES, path.join(ws, 'node_modules'));
  return ws;
}

const TS_TASK: SeededTask = {
  file: 'count.ts',
  edit: { search: '  return items.length;', replace: '  return `${items.length}`;' },
  fixes: { "is not assignable to type 'number'": { search: '  return `${items.length}`;', replace: '  return items.length;' } },
};

const SH_TASK: SeededTask = {
  file: 'greet.sh',
  edit: { search: 'cd "$1" || exit 1', replace: 'cd "$1"' },
  fixes: { 'in case cd fails': { search: 'cd "$1"\n', replace: 'cd "$1" || exit 1\n' } },
};

/** scripts/setup-e2e.sh installs shellcheck; outside CI a machine without it skips with a note. */
function shellcheckOrSkip(ctx: Mocha.Context): void {
  if (spawnSync('shellcheck', ['--version']).status === 0) return;
  if (process.env.CI) throw new Error('shellcheck is not installed (scripts/setup-e2e.sh installs it)');
  console.log('      (skipped: shellcheck is not installed)');
  ctx.skip();
}

function observations(requests: readonly ModelRequest[], tool: string): string[] {
  const last = requests.at(-1)!;
  return last.messages.flatMap((m) => (m.role === 'tool_result' && m.tool === tool ? [m.content] : []));
}

async function run(ws: string, task: SeededTask, flags: string[] = []) {
  const provider = new ScriptedProvider(fixerScript(task, { runTests: false }));
  await runScriptedTask(ws, ['--approve', 'read,write', ...flags, 'make the change'], provider);
  return observations(provider.requests, 'edit_file');
}

describe('keel run: problems after every edit (issue 38)', function () {
  this.timeout(180_000);

  it('TypeScript: the edit that breaks a type is told the error, the fix next turn is told it is gone', async function () {
    const ws = tsProject('cli-problems-ts');
    await sandboxOrSkip(this, ws);
    const [broke, fixed, ...rest] = await run(ws, TS_TASK);
    assert.match(
      broke!,
      /Problems after this edit \(tsc\): 1 new:\ncount\.ts:2:3 error Type 'string' is not assignable to type 'number'\. \[TS2322\]/,
    );
    assert.match(fixed!, /Problems after this edit \(tsc\): none new\. 1 problem gone with this edit\./);
    assert.deepEqual(rest, []);
    assert.match(fs.readFileSync(path.join(ws, 'count.ts'), 'utf8'), /return items\.length;/);
  });

  it('TypeScript with --no-problems: the model is not told, and the error stays', async function () {
    const ws = tsProject('cli-problems-off');
    await sandboxOrSkip(this, ws);
    const edits = await run(ws, TS_TASK, ['--no-problems']);
    assert.equal(edits.length, 1);
    assert.doesNotMatch(edits[0]!, /Problems after this edit/);
    assert.match(fs.readFileSync(path.join(ws, 'count.ts'), 'utf8'), /return `\$\{items\.length\}`;/);
  });

  it('a shell script: shellcheck’s new warning is told, the fix reports it gone', async function () {
    const ws = path.join(scratchDir('cli-problems-sh'), 'ws');
    fs.mkdirSync(ws, { recursive: true });
    fs.writeFileSync(path.join(ws, 'greet.sh'), '#!/bin/sh\ncd "$1" || exit 1\nls\n');
    await sandboxOrSkip(this, ws);
    shellcheckOrSkip(this);
    const [broke, fixed] = await run(ws, SH_TASK);
    assert.match(
      broke!,
      /Problems after this edit \(shellcheck\): 1 new:\ngreet\.sh:2:1 warning Use 'cd \.\.\. \|\| exit' or 'cd \.\.\. \|\| return' in case cd fails\. \[SC2164\]/,
    );
    assert.match(fixed!, /none new\. 1 problem gone with this edit\./);
  });

  it('a TypeScript file without a tsconfig.json: no checker, said once, and the edits still apply', async () => {
    const ws = path.join(scratchDir('cli-problems-nocheck'), 'ws');
    fs.mkdirSync(ws, { recursive: true });
    fs.writeFileSync(path.join(ws, 'a.ts'), 'export const x: number = 1;\n');
    const task: SeededTask = { file: 'a.ts', edit: { search: '= 1', replace: '= "1"' }, fixes: {} };
    const provider = new ScriptedProvider([
      toolTurn('read_file', { path: 'a.ts' }, '', 'r'),
      toolTurn('edit_file', { path: 'a.ts', edits: [task.edit] }, '', 'e1'),
      toolTurn('edit_file', { path: 'a.ts', edits: [{ search: '= "1"', replace: '= 2' }] }, '', 'e2'),
      textTurn('done'),
    ]);
    await runScriptedTask(ws, ['--approve', 'read,write', 'change x'], provider);
    const [first, second] = observations(provider.requests, 'edit_file');
    assert.match(first!, /No checker for \.ts files: no tsconfig\.json at the workspace root\.$/);
    assert.doesNotMatch(second!, /No checker|Problems after/);
    assert.equal(fs.readFileSync(path.join(ws, 'a.ts'), 'utf8'), 'export const x: number = 2;\n');
  });
});
