// The headless ProblemSource's guard rails: a checker that hangs is capped and said, a missing
// checker is said once per task, no sandbox means no check (never the workspace's code run
// unsandboxed), and the baseline reuses the last whole-project check. Also the parsers of tsc's
// and shellcheck's output.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createNodeWorkspace } from '../../../src/node/node-workspace.js';
import type { Checker } from '../../../src/node/problems/checker.js';
import { createNodeProblemSource } from '../../../src/node/problems/node-problem-source.js';
import { parseShellcheckOutput } from '../../../src/node/problems/shellcheck-checker.js';
import { parseTscOutput } from '../../../src/node/problems/tsc-checker.js';
import { COMMAND_SANDBOX_RULES } from '../../../src/tools/index.js';
import { sandboxOrSkip } from '../../support/sandbox.js';
import { scratchDir } from '../../support/scratch.js';

const signal = new AbortController().signal;

function fakeChecker(commandLine: string, over: Partial<Checker> = {}): Checker {
  return {
    name: 'fake',
    wholeProject: true,
    handles: (f) => f.endsWith('.ts'),
    missing: () => undefined,
    commandLine: () => commandLine,
    parse: (out) => parseTscOutput(out, '/nowhere'),
    ...over,
  };
}

async function workspace(name: string, sandboxed = true) {
  const root = scratchDir(name);
  fs.writeFileSync(path.join(root, 'a.ts'), 'x\n');
  return createNodeWorkspace(root, sandboxed ? { sandbox: { rules: COMMAND_SANDBOX_RULES } } : {});
}

describe('headless problems after an edit: the source', function () {
  this.timeout(60_000);

  it('a checker that hangs is capped and said, each time', async function () {
    const ws = await workspace('problems-hang');
    await sandboxOrSkip(this, ws.root);
    const source = createNodeProblemSource(ws, { timeoutMs: 800, checkers: [fakeChecker('sleep 60')] });
    const started = Date.now();
    const snap = await source.snapshot(['a.ts'], { signal });
    assert.ok(Date.now() - started < 15_000);
    assert.deepEqual(snap.checkers, []);
    assert.deepEqual(snap.notes, ['fake did not finish within 1 s: the problems of this edit are unknown.']);
    assert.equal((await source.snapshot(['a.ts'], { signal })).notes.length, 1);
  });

  it('a missing checker is said once per task', async () => {
    const ws = await workspace('problems-missing');
    const source = createNodeProblemSource(ws, { checkers: [fakeChecker('true', { missing: () => 'it is not installed' })] });
    assert.deepEqual((await source.snapshot(['a.ts'], { signal })).notes, ['No checker for .ts files: it is not installed.']);
    assert.deepEqual((await source.snapshot(['a.ts'], { signal })).notes, []);
  });

  it('without the OS sandbox nothing is run, and that is said', async () => {
    const ws = await workspace('problems-nosandbox', false);
    const marker = path.join(ws.root, 'ran');
    const source = createNodeProblemSource(ws, { checkers: [fakeChecker(`touch ${marker}`)] });
    const snap = await source.snapshot(['a.ts'], { signal });
    assert.match(snap.notes[0]!, /runs only in the OS sandbox/);
    assert.equal(fs.existsSync(marker), false);
  });

  it('the baseline reuses the last whole-project check; a fresh snapshot runs again', async function () {
    const ws = await workspace('problems-reuse');
    await sandboxOrSkip(this, ws.root);
    let runs = 0;
    const checker = fakeChecker("echo 'a.ts(1,1): error TS1: one'", {
      parse: (out) => {
        runs++;
        return parseTscOutput(out, ws.root);
      },
    });
    const source = createNodeProblemSource(ws, { checkers: [checker] });
    await source.snapshot(['a.ts'], { signal });
    const reused = await source.snapshot(['a.ts'], { signal, reuse: true });
    assert.equal(runs, 1);
    assert.equal(reused.problems[0]!.message, 'one');
    await source.snapshot(['a.ts'], { signal });
    assert.equal(runs, 2);
  });

  it('a checker that fails without a problem line is said with its first line', async function () {
    const ws = await workspace('problems-broken');
    await sandboxOrSkip(this, ws.root);
    const source = createNodeProblemSource(ws, { checkers: [fakeChecker("echo 'Cannot find module typescript' >&2; exit 2")] });
    assert.deepEqual((await source.snapshot(['a.ts'], { signal })).notes, ['fake failed (exit 2): Cannot find module typescript']);
  });
});

describe('headless problems after an edit: parsing checkers’ output', () => {
  it('tsc: located errors, their elaboration lines skipped, and project errors on tsconfig.json', () => {
    const out = [
      "src/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.",
      "  Type 'x' is not assignable to type 'y'.",
      "error TS5083: Cannot read file '/ws/base.json'.",
      '/ws/lib/b.ts(10,2): error TS2304: Cannot find name q.',
    ].join('\n');
    assert.deepEqual(parseTscOutput(out, '/ws'), [
      {
        path: 'src/a.ts',
        line: 3,
        column: 7,
        severity: 'error',
        message: "Type 'string' is not assignable to type 'number'.",
        source: 'TS2322',
      },
      { path: 'tsconfig.json', line: 1, column: 1, severity: 'error', message: "Cannot read file '/ws/base.json'.", source: 'TS5083' },
      { path: 'lib/b.ts', line: 10, column: 2, severity: 'error', message: 'Cannot find name q.', source: 'TS2304' },
    ]);
  });

  it('shellcheck: warnings and errors kept as such, notes and style as infos', () => {
    const out =
      "a.sh:2:1: warning: Use 'cd ... || exit' in case cd fails. [SC2164]\na.sh:3:6: note: Double quote to prevent globbing. [SC2086]\nb.sh:1:1: error: Bad. [SC1000]";
    assert.deepEqual(
      parseShellcheckOutput(out).map((d) => `${d.path}:${d.line}:${d.column} ${d.severity} ${d.source}`),
      ['a.sh:2:1 warning SC2164', 'a.sh:3:6 info SC2086', 'b.sh:1:1 error SC1000'],
    );
  });
});
