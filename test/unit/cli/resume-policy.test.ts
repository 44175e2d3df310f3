// keel resume decides under the settings the interrupted run was started with: its log's header
// records the approvals, the command rules and the sandbox mode, and a resume without policy
// flags takes them back (a run started with --sandbox everything must not resume with less).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseResumeArgs, parseRunArgs } from '../../../src/cli/args.js';
import { runPolicy, withPolicy } from '../../../src/cli/task-runtime.js';
import { JsonlLogStore, loadLog } from '../../../src/node/jsonl-store.js';

function resumedOptions(runArgv: string[], resumeFlags: string[] = []) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-resume-policy-'));
  const log = path.join(dir, 'task.jsonl');
  const started = parseRunArgs(['run', ...runArgv, 'fix it'], dir);
  void JsonlLogStore.open(log, { policy: runPolicy(started) }).close();
  const loaded = loadLog(log);
  const { options, policyGiven } = parseResumeArgs([log, ...resumeFlags], dir);
  return policyGiven || !loaded.policy ? options : withPolicy(options, loaded.policy);
}

describe('keel resume: the log header carries the run policy', () => {
  it('restores the sandbox mode the run was started with', () => {
    assert.equal(resumedOptions(['--sandbox', 'everything']).sandbox, 'everything');
    assert.equal(resumedOptions(['--sandbox', 'off', '--approve', 'execute']).sandbox, 'off');
  });

  it('takes the flags given on resume instead, the sandbox among them', () => {
    assert.equal(resumedOptions(['--sandbox', 'everything'], ['--sandbox', 'unasked']).sandbox, 'unasked');
  });
});
