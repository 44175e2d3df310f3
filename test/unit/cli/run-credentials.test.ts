// A real `keel run` with credentials in its environment: an approved `printenv` (the user's own
// --allow-command, the model's call) must not hand them to the model. The model stand-in speaks
// the Anthropic wire format and records every request; the command runs in real bash.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnKeel } from '../../support/keel-cli.js';
import { conversation, startModelServer, type ModelServer } from '../../support/model-server.js';
import { outsideTmp, ranHow } from '../../support/sandbox.js';
import { scratchDir } from '../../support/scratch.js';
import { secretCorpus } from '../../support/secret-corpus.js';

const sample = (name: string) => secretCorpus().find((s) => s.name === name)!.secret;
/** Credentials as a user's shell holds them: by a telling name, or only by what the value is. */
const CREDENTIALS = {
  GITHUB_TOKEN: sample('GitHub classic token'),
  AWS_SECRET_ACCESS_KEY: sample('AWS secret access key (env)'),
  NPM_TOKEN: sample('npm token'),
  TEAM_NOTIFY: sample('Slack bot token'),
};

describe('keel run: credentials in its environment never reach the model', function () {
  this.timeout(60_000);
  let server: ModelServer | undefined;
  afterEach(async () => server?.close());

  async function printenvRun(extra: string[]) {
    const dir = scratchDir('cli-credentials');
    const work = path.join(dir, 'project');
    fs.mkdirSync(work);
    server = await startModelServer(
      conversation([{ toolCalls: [{ name: 'run_command', input: { command: 'printenv' } }] }, { text: ['Done.'] }]),
    );
    fs.mkdirSync(path.join(dir, 'tmp'));
    const env = {
      ...CREDENTIALS,
      HARMLESS: 'visible',
      XDG_CONFIG_HOME: path.join(dir, 'config'),
      XDG_CACHE_HOME: path.join(dir, 'cache'),
      ...outsideTmp(path.join(dir, 'tmp')),
    };
    const args = [
      'run',
      '--workspace',
      work,
      '--base-url',
      server.anthropicBaseURL,
      '--allow-command',
      'printenv',
      ...extra,
      'show the env',
    ];
    const run = await spawnKeel(args, dir, env);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(server.requests.length, 2);
    const next = JSON.stringify(server.requests[1]!.body);
    return { run, next, how: ranHow(next, outsideTmp(path.join(dir, 'tmp'))) };
  }

  // An allow rule runs printenv in the sandbox; with the sandbox off it runs unsandboxed (its
  // TMPDIR shows which way it ran). Both ways withhold the same variables.
  for (const { how, flags, ran } of [
    { how: 'in the sandbox', flags: [], ran: 'sandbox' },
    { how: 'with the sandbox off (the keeper)', flags: ['--sandbox', 'off'], ran: 'unsandboxed' },
  ]) {
    it(`an approved printenv ${how}: the next request has the environment without them, and stderr names them`, async () => {
      const { run, next, how: actually } = await printenvRun(flags);
      assert.match(next, /HARMLESS=visible/, 'the command did run and its output went back');
      assert.equal(actually, ran, 'it ran the way this case tests');
      for (const [name, value] of Object.entries(CREDENTIALS)) {
        assert.ok(!next.includes(value), `${name}'s value reached the model`);
        assert.ok(!next.includes(`${name}=`), `${name} reached the model`);
        assert.ok(!run.stdout.includes(value) && !run.stderr.includes(value), `${name}'s value was printed`);
      }
      assert.ok(!next.includes('test-key'), "Keel's own key, as before");
      assert.match(run.stderr, /commands will not see AWS_SECRET_ACCESS_KEY, GITHUB_TOKEN, NPM_TOKEN, TEAM_NOTIFY/);
    });
  }

  it('--pass-env NAME lets that one variable through to the command, and only it; its value in the output is still redacted', async () => {
    const { next } = await printenvRun(['--pass-env', 'GITHUB_TOKEN']);
    // Its whole line (name and token are one run of token characters) is the marker: printenv printed it.
    assert.match(next, /\\n\[redacted\]\\n/, 'passed as asked: the command had it');
    assert.ok(!next.includes('NPM_TOKEN=') && !next.includes('TEAM_NOTIFY='), 'the others were withheld');
    assert.ok(!next.includes(CREDENTIALS.GITHUB_TOKEN), 'the model never reads the value');
  });

  it('--pass-env refuses a bad name and Keel’s own key', async () => {
    const dir = scratchDir('cli-credentials-usage');
    for (const bad of ['ANTHROPIC_API_KEY', 'NOT-A-NAME']) {
      const run = await spawnKeel(['run', '--pass-env', bad, 'x'], dir, {});
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, /--pass-env/);
    }
  });
});
