// keel resume decides with the command line it is given — its flags, or their defaults — and the
// log's header may only narrow that: a run started with --sandbox everything does not resume with
// less, and a header that says "approve all, sandbox off" gives a resume nothing it was not given.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { parseResumeArgs, parseRunArgs } from '../../../src/cli/args.js';
import { resumedPolicy } from '../../../src/cli/resume-command.js';
import { runPolicy } from '../../../src/cli/task-runtime.js';

function resumed(runArgv: string[], resumeFlags: string[] = []) {
  const header = runPolicy(parseRunArgs(['run', ...runArgv, 'fix it'], '/tmp'));
  const { options } = parseResumeArgs(['task.jsonl', ...resumeFlags], '/tmp');
  const stderr = new PassThrough();
  let said = '';
  stderr.on('data', (d) => (said += d));
  const o = resumedPolicy(options, header, stderr);
  return { o, said: () => said };
}

describe('keel resume: the command line decides, the log header may only narrow', () => {
  it('keeps the sandbox mode a run was started with when it is stricter', () => {
    assert.equal(resumed(['--sandbox', 'everything']).o.sandbox, 'everything');
    assert.equal(resumed(['--sandbox', 'everything'], ['--sandbox', 'off']).o.sandbox, 'everything');
  });

  it('never takes a wider policy from the header: approvals and sandbox are the flags’', () => {
    const { o, said } = resumed(['--approve', 'all', '--sandbox', 'off', '--allow-command', 'curl']);
    assert.deepEqual(o.approve, ['read']);
    assert.equal(o.approveUnclassified, false);
    assert.equal(o.approveMemory, false);
    assert.equal(o.sandbox, 'unasked');
    assert.deepEqual(o.allowCommands, []);
    assert.match(said(), /the interrupted run approved all; this resume approves read — approvals come from this command line/);
  });

  it('approves what both the flags and the header approve, and keeps every deny rule', () => {
    const { o, said } = resumed(
      ['--approve', 'read,write', '--allow-command', 'npm test', '--deny-command', 'git push'],
      ['--approve', 'all', '--allow-command', 'npm', '--deny-command', 'rm'],
    );
    assert.deepEqual(o.approve, ['read', 'write']);
    assert.equal(o.approveUnclassified, false);
    assert.deepEqual(o.allowCommands, ['npm test']);
    assert.deepEqual(o.denyCommands.sort(), ['git push', 'rm']);
    assert.match(
      said(),
      /started with less, so this resume does not approve execute,network; approve all; approve memory; allow-command "npm"/,
    );
  });
});
