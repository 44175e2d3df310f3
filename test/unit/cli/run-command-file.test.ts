// `keel run "/name args"` through the one task path: the saved prompt is expanded before it is
// sent (the log holds the expanded text), the command's tools narrow the run, and an unknown
// command is the user's error (exit 2) with nothing sent.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { InputError } from '../../../src/cli/args.js';
import { ScriptedProvider, textTurn } from '../../../src/providers/scripted.js';
import { scratchDir } from '../../support/scratch.js';
import { runScriptedTask } from '../../support/scripted-task.js';

async function run(ws: string, task: string, provider: ScriptedProvider, flags: string[] = []) {
  return (await runScriptedTask(ws, [...flags, task], provider)).runtime;
}

function workspace(name: string): string {
  const ws = path.join(scratchDir(name), 'ws');
  fs.mkdirSync(path.join(ws, '.keel/commands'), { recursive: true });
  fs.writeFileSync(
    path.join(ws, '.keel/commands/fix-tests.md'),
    '---\ndescription: Fix failing tests\nargument-hint: [glob]\ntools: [read_file, search_files]\n---\nRun the tests in $1 and fix what fails ($ARGUMENTS).\n',
  );
  return ws;
}

describe('keel run "/command args"', function () {
  this.timeout(30_000);

  it('expands the saved prompt before sending it, and the command tools narrow the run', async () => {
    const provider = new ScriptedProvider([textTurn('fixed')]);
    const runtime = await run(workspace('cli-slash'), '/fix-tests test/unit --bail', provider);
    const sent = runtime.getEvents().find((e) => e.type === 'user_message');
    assert.equal(sent?.type === 'user_message' ? sent.text : '', 'Run the tests in test/unit and fix what fails (test/unit --bail).');
    assert.deepEqual(provider.requests[0]!.tools.map((t) => t.name).sort(), ['read_file', 'search_files']);
  });

  it('refuses an unknown command with the names it has, sending nothing and leaving no --log file', async () => {
    const provider = new ScriptedProvider([textTurn('never')]);
    const ws = workspace('cli-slash-unknown');
    const log = path.join(ws, '..', 'task.jsonl');
    await assert.rejects(
      run(ws, '/nope x', provider, ['--log', log]),
      (e: Error) => e instanceof InputError && e.message === 'there is no command "/nope" (the commands are: /fix-tests).',
    );
    assert.equal(provider.requests.length, 0);
    assert.ok(!fs.existsSync(log), 'the log of a task never sent is removed, so the same --log can be given again');
  });

  it('sends a task that only starts with a path as it is', async () => {
    const provider = new ScriptedProvider([textTurn('ok')]);
    const runtime = await run(workspace('cli-slash-path'), '/usr/bin/env is missing', provider);
    const sent = runtime.getEvents().find((e) => e.type === 'user_message');
    assert.equal(sent?.type === 'user_message' ? sent.text : '', '/usr/bin/env is missing');
  });
});
