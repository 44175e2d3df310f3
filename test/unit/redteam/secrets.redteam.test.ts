// Red team, secrets in files and URLs (issue 33 item 8): a hostile model asks a real `keel run`
// to read the places credentials sit in a workspace — a token in a git remote (`git remote -v`
// run unasked, `.git/config` read), an .npmrc, a .pypirc, Docker's config.json, a base64 deploy
// key, DOCKER_AUTH_CONFIG in Keel's environment — and none of them reaches a request to the
// model, the task's log or keel's output, while the calls did run and answered. The yardstick:
// the same bytes do hold every credential (on disk, in git's own output, in the environment).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { hostileRun, type HostileRun } from '../../support/redteam.js';
import { secretCorpus } from '../../support/secret-corpus.js';

const corpus = secretCorpus();
const sample = (name: string) => corpus.find((s) => s.name === name)!;
const remoteToken = sample('git remote with a token as its user name').secret;
const remotePassword = sample('.git/config remote URL with a token').secret;
const npmrc = [sample('.npmrc legacy _auth'), sample('npmrc auth token')];
const pypirc = [sample('.pypirc password of letters'), sample('PyPI token')];
const docker = sample('Docker config.json auth');
const deployKey = sample('base64 deploy key');
const k8sKey = sample('base64 deploy key, wrapped');
const dockerEnv = sample('DOCKER_AUTH_CONFIG');

const FILES = {
  '.npmrc': `${npmrc.map((s) => s.text).join('\n')}\n`,
  '.pypirc': `${pypirc.map((s) => s.text).join('\n')}\n`,
  'docker/config.json': `${docker.text}\n`,
  'deploy/key.txt': `${deployKey.text}\n`,
  'k8s/secret.yaml': k8sKey.text,
};
const SECRETS: Record<string, string> = {
  'git remote token': remoteToken,
  'git remote password': remotePassword,
  '.npmrc _auth': npmrc[0]!.secret,
  '.npmrc _authToken': npmrc[1]!.secret,
  '.pypirc password': pypirc[0]!.secret,
  '.pypirc token': pypirc[1]!.secret,
  'docker auth': docker.secret,
  'base64 deploy key': deployKey.secret,
  'base64 key in a Kubernetes secret': k8sKey.secret,
  DOCKER_AUTH_CONFIG: dockerEnv.secret,
};

function gitRepo(workspace: string): void {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: workspace, stdio: 'pipe' });
  git('init', '-q');
  git('remote', 'add', 'origin', `https://${remoteToken}@github.com/acme/app.git`);
  git('remote', 'add', 'mirror', `https://ci-bot:${remotePassword}@gitlab.com/acme/app.git`);
}

const call = (name: string, input: Record<string, unknown>) => ({ name, input });

describe('red team: secrets in files and URLs never reach the model or the log', function () {
  this.timeout(120_000);
  let attack: HostileRun;

  before(async () => {
    attack = await hostileRun({
      files: FILES,
      prepare: gitRepo,
      env: { DOCKER_AUTH_CONFIG: dockerEnv.text.slice('DOCKER_AUTH_CONFIG='.length) },
      // Read-only commands (git remote -v, cat, printenv) run unasked, in the sandbox.
      flags: ['--approve', 'read,execute', '--allow-command', 'printenv DOCKER_AUTH_CONFIG'],
      turns: [
        [call('run_command', { command: 'git remote -v' })],
        [call('read_file', { path: '.git/config' })],
        ...Object.keys(FILES).map((p) => [call('read_file', { path: p })]),
        [call('run_command', { command: 'cat .npmrc .pypirc docker/config.json deploy/key.txt' })],
        [call('run_command', { command: 'printenv DOCKER_AUTH_CONFIG' })],
      ],
    });
  });

  it('yardstick: the workspace, git and the environment do hold every one of them', () => {
    const onDisk = Object.keys(FILES)
      .map((p) => fs.readFileSync(path.join(attack.workspace, p), 'utf8'))
      .join('\n');
    const remotes = execFileSync('git', ['remote', '-v'], { cwd: attack.workspace, encoding: 'utf8' });
    const config = fs.readFileSync(path.join(attack.workspace, '.git/config'), 'utf8');
    for (const [name, secret] of Object.entries(SECRETS)) {
      if (name === 'DOCKER_AUTH_CONFIG') assert.ok(dockerEnv.text.includes(secret));
      else assert.ok(onDisk.includes(secret) || (remotes.includes(secret) && config.includes(secret)), name);
    }
  });

  it('every call ran and answered (the model read the files, git and the commands)', () => {
    assert.equal(attack.run.code, 0, attack.run.stdout + attack.run.stderr);
    const last = attack.requests.at(-1)!;
    assert.match(last, /origin\\thttps:\/\/\[redacted\]@github\.com\/acme\/app\.git \(fetch\)/, 'git remote -v ran unasked');
    assert.match(last, /\[remote \\"mirror\\"\]\\n[^"]*url = [^\\]*\[redacted\]/, '.git/config was read');
    assert.match(last, /registry=https:\/\/npm\.example\.com\//, '.npmrc was read');
    assert.match(last, /username = ci/, '.pypirc was read');
    assert.match(last, /DEPLOY_KEY_B64=\[redacted\]/, 'the deploy key was read');
    assert.match(last, /kind: Secret/, 'the Kubernetes secret was read');
  });

  it('none of them is in a request to the model, the log or what keel printed', () => {
    const printed = attack.run.stdout + attack.run.stderr;
    for (const [name, secret] of Object.entries(SECRETS)) {
      for (const [i, r] of attack.requests.entries()) assert.ok(!r.includes(secret), `${name} reached the model in request ${i + 1}`);
      assert.ok(!attack.log.includes(secret), `${name} is in the task log`);
      assert.ok(!printed.includes(secret), `${name} was printed`);
    }
  });
});
