import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, utimesSync } from 'node:fs';
import * as path from 'node:path';
import { estimateTokens } from '../../../src/kernel/index.js';
import { runCommandTool } from '../../../src/tools/run-command.js';
import { getDiagnosticsTool } from '../../../src/tools/get-diagnostics.js';
import { allTools } from '../../../src/tools/index.js';
import { context, tempWorkspace, type TempWorkspace } from './helpers.js';

describe('run_command and get_diagnostics', function () {
  this.timeout(30_000);
  let t: TempWorkspace;
  before(async () => {
    t = await tempWorkspace({ 'sub/x.txt': 'x' });
  });
  after(() => t.cleanup());

  it('returns exit code and output; a non-zero exit is a failure the model can read', async () => {
    const ok = await runCommandTool.execute({ command: 'echo hello; ls', cwd: 'sub' }, context(t.ws));
    assert.equal(ok.ok, true);
    assert.match(ok.content, /^\$ echo hello; ls\n\[exit code 0 in [\d.]+s\]\nhello\nx\.txt\n$/);
    const bad = await runCommandTool.execute({ command: 'echo oops >&2; exit 2' }, context(t.ws));
    assert.equal(bad.ok, false);
    assert.equal(bad.code, 'execution_failed');
    assert.match(bad.content, /exit code 2/);
    assert.match(bad.content, /oops/);
  });

  it('keeps the observation within budget for huge output, keeping head and tail', async () => {
    const r = await runCommandTool.execute(
      { command: "echo FIRST; head -c 20000000 /dev/zero | tr '\\0' 'b'; echo; echo LAST" },
      context(t.ws),
    );
    assert.ok(estimateTokens(r.content) <= runCommandTool.outputBudgetTokens, `${estimateTokens(r.content)} tokens`);
    assert.match(r.content, /FIRST/);
    assert.match(r.content, /LAST\n$/);
    assert.match(r.content, /characters of output cut/);
  });

  it('times out', async () => {
    const r = await runCommandTool.execute({ command: 'sleep 10', timeoutMs: 1000 }, context(t.ws));
    assert.equal(r.code, 'timeout');
  });

  it('runs git status and git diff without rewriting .git/index, which git does otherwise', async () => {
    const w = await tempWorkspace({ 'a.txt': 'a\n' });
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=k', '-c', 'user.email=k@k', ...args], { cwd: w.dir, env: { PATH: process.env.PATH } });
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'a');
    const indexState = () => readFileSync(path.join(w.dir, '.git/index')).toString('hex');
    const staleStat = () => utimesSync(path.join(w.dir, 'a.txt'), new Date('2001-01-01'), new Date('2001-01-01'));
    staleStat();
    const before = indexState();
    const r = await runCommandTool.execute({ command: 'git status --short && git diff --stat && git diff' }, context(w.ws));
    assert.equal(r.ok, true, r.content);
    assert.equal(indexState(), before, 'run_command left .git/index alone');
    git('diff', '--stat');
    assert.notEqual(indexState(), before, 'a plain git diff rewrites the index (why COMMAND_ENV exists)');
    await w.cleanup();
  });

  it('get_diagnostics says it is not available without language services, and is hidden then', async () => {
    const r = await getDiagnosticsTool.execute({}, context(t.ws));
    assert.equal(r.ok, false);
    assert.match(r.content, /not available/);
    assert.equal(getDiagnosticsTool.isVisible!({ trusted: true, hasDiagnostics: false }), false);
  });

  it('get_diagnostics lists errors first when the port has them', async () => {
    const ws = {
      ...t.ws,
      diagnostics: async () => [
        { path: 'a.ts', line: 3, column: 1, severity: 'warning' as const, message: 'unused' },
        { path: 'b.ts', line: 1, column: 5, severity: 'error' as const, message: 'type error', source: 'ts' },
      ],
    };
    const r = await getDiagnosticsTool.execute({}, context(ws));
    assert.equal(r.summary, '1 error, 1 warning');
    assert.match(r.content, /b\.ts:1:5 error \[ts\]: type error\na\.ts:3:1 warning: unused/);
  });

  it('hides write and execute tools in Restricted Mode', () => {
    const visible = allTools.filter((d) => (d.isVisible ? d.isVisible({ trusted: false, hasDiagnostics: true }) : true)).map((d) => d.name);
    // Sub-agents stay: a child gets only tools its parent has, so in Restricted Mode it only reads.
    // The to-do list stays too: it changes nothing but the task's own log.
    assert.deepEqual(visible.sort(), [
      'delegate',
      'delegate_plan',
      'get_diagnostics',
      'list_files',
      'read_file',
      'search_files',
      'todo_read',
      'todo_write',
    ]);
  });
});
