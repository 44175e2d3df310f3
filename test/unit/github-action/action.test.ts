// The Keel GitHub Action end to end: scripts/github-action/main.ts run as action.yml runs it
// (INPUT_* and GITHUB_* variables, an event payload file), the real keel CLI on a temp git
// repository with the model stand-in, and a GitHub stand-in on 127.0.0.1 recording what is posted.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { conversation, type ModelServer, startModelServer } from '../../support/model-server.js';
import { scratchDir } from '../../support/scratch.js';
import { fixerModel, fixLine } from '../../e2e/lib/fixer-model.js';
import { type GitHubStandIn, startGitHubStandIn } from './github-stand-in.js';

const ROOT = path.resolve(__dirname, '../../..');
const TSX = pathToFileURL(require.resolve('tsx')).href;
const SCRIPT = path.join(ROOT, 'scripts/github-action/main.ts');
const TOKEN = 'ghs_testtoken123';

interface ActionRun {
  code: number | null;
  stdout: string;
  stderr: string;
  outputs: string;
}

function runAction(workspace: string, event: string, payload: unknown, env: Record<string, string>): Promise<ActionRun> {
  const dir = scratchDir('action-job');
  const eventPath = path.join(dir, 'event.json');
  const outputPath = path.join(dir, 'output.txt');
  fs.writeFileSync(eventPath, JSON.stringify(payload));
  fs.writeFileSync(outputPath, '');
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(npm_config_|GITHUB_|INPUT_)/i.test(k)));
  const childEnv = {
    ...base,
    KEEL_ENTRY: path.join(ROOT, 'src/cli/main.ts'),
    ANTHROPIC_API_KEY: 'test-key',
    XDG_CONFIG_HOME: scratchDir('action-cfg'),
    XDG_STATE_HOME: scratchDir('action-state'),
    XDG_CACHE_HOME: scratchDir('action-cache'),
    GITHUB_EVENT_NAME: event,
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_OUTPUT: outputPath,
    GITHUB_REPOSITORY: 'o/r',
    GITHUB_WORKSPACE: workspace,
    GITHUB_RUN_ID: '4242',
    ...env,
  };
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [`--import=${TSX}`, SCRIPT], {
      cwd: workspace,
      env: childEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr, outputs: fs.readFileSync(outputPath, 'utf8') }));
  });
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, encoding: 'utf8' }).trim();
}

function failingTestsRepo(): string {
  const dir = scratchDir('action-repo');
  fs.cpSync(path.join(ROOT, 'examples', 'failing-tests'), dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'base');
  return dir;
}

function configFile(model: ModelServer): string {
  const file = path.join(scratchDir('action-config'), 'keel.json');
  fs.writeFileSync(file, JSON.stringify({ approve: 'all', provider: 'anthropic', baseUrl: model.anthropicBaseURL, maxTurns: 12 }));
  return file;
}

function commentPayload(body: string, login: string, pullRequest = false) {
  return {
    repository: { full_name: 'o/r', default_branch: 'main' },
    issue: { number: 12, title: 'tests fail', ...(pullRequest ? { pull_request: { url: 'x' } } : {}) },
    comment: { body, user: { login } },
  };
}

const SHA_A = 'a'.repeat(40);
const SHA_B = 'b'.repeat(40);

describe('the Keel GitHub Action', function () {
  this.timeout(120_000);
  let github: GitHubStandIn | undefined;
  let model: ModelServer | undefined;
  afterEach(async () => {
    await github?.close();
    await model?.close();
    github = model = undefined;
  });

  it('a /keel comment by a writer runs keel and opens a pull request with the patch', async () => {
    const repo = failingTestsRepo();
    const head = git(repo, 'rev-parse', 'HEAD');
    github = await startGitHubStandIn({ permissions: { alice: 'write' } });
    model = await startModelServer(fixerModel());
    const run = await runAction(repo, 'issue_comment', commentPayload('/keel fix the failing tests', 'alice'), {
      GITHUB_TOKEN: TOKEN,
      GITHUB_API_URL: github.url,
      INPUT_CONFIG: configFile(model),
    });
    assert.equal(run.code, 0, run.stderr);
    assert.ok(!`${run.stdout}${run.stderr}`.includes(TOKEN), 'the token is never printed');
    assert.equal(github.requests[0]!.path, '/repos/o/r/collaborators/alice/permission');
    assert.ok(github.requests.every((r) => r.authorization === `Bearer ${TOKEN}`));
    const blob = github.posts().find((r) => r.path === '/repos/o/r/git/blobs')!;
    assert.ok(Buffer.from(blob.body.content, 'base64').toString('utf8').includes(fixLine));
    const tree = github.posts().find((r) => r.path === '/repos/o/r/git/trees')!;
    assert.equal(tree.body.base_tree, git(repo, 'rev-parse', 'HEAD^{tree}'));
    assert.deepEqual(
      tree.body.tree.map((e: { path: string; mode: string }) => `${e.path} ${e.mode}`),
      ['src/price.js 100644'],
    );
    const commit = github.posts().find((r) => r.path === '/repos/o/r/git/commits')!;
    assert.deepEqual(commit.body.parents, [head]);
    const ref = github.posts().find((r) => r.path === '/repos/o/r/git/refs')!;
    assert.equal(ref.body.ref, 'refs/heads/keel/4242');
    const pr = github.posts().find((r) => r.path === '/repos/o/r/pulls')!;
    assert.equal(pr.body.head, 'keel/4242');
    assert.equal(pr.body.base, 'main');
    assert.match(pr.body.body, /Asked in #12/);
    assert.match(run.outputs, /^pull-request=https:\/\/github\.example\/o\/r\/pull\/99$/m);
    // The model's text reached keel as one task, untouched by any shell.
    assert.match(JSON.stringify(model.requests[0]!.body.messages), /fix the failing tests/);
  });

  it('review mode posts one review with the findings as line comments and the rest in its body', async () => {
    const repo = failingTestsRepo();
    const base = git(repo, 'rev-parse', 'HEAD');
    fs.appendFileSync(path.join(repo, 'src/price.js'), '\nfunction half(x) {\n  return x / 2;\n}\n');
    git(repo, 'commit', '-qam', 'half');
    const head = git(repo, 'rev-parse', 'HEAD');
    const lines = fs.readFileSync(path.join(repo, 'src/price.js'), 'utf8').split('\n');
    const added = lines.indexOf('  return x / 2;') + 1;
    const findings = {
      findings: [
        { file: 'src/price.js', line: added, severity: 'warning', body: 'half() of an odd number of cents is not whole. cc @someone' },
        { file: 'src/price.js', line: 1, severity: 'note', body: 'Line 1 is outside the diff.' },
      ],
    };
    github = await startGitHubStandIn({ permissions: {} });
    model = await startModelServer(conversation([{ text: ['```json\n', JSON.stringify(findings), '\n```\n'] }]));
    const payload = {
      repository: { full_name: 'o/r', default_branch: 'main' },
      pull_request: {
        number: 7,
        base: { sha: base, ref: 'main', repo: { full_name: 'o/r' } },
        head: { sha: head, ref: 'feature', repo: { full_name: 'o/r', fork: false } },
      },
    };
    const run = await runAction(repo, 'pull_request', payload, {
      GITHUB_TOKEN: TOKEN,
      GITHUB_API_URL: github.url,
      INPUT_MODE: 'review',
      INPUT_CONFIG: configFile(model),
    });
    assert.equal(run.code, 0, run.stderr);
    const posts = github.posts();
    assert.deepEqual(
      posts.map((r) => r.path),
      ['/repos/o/r/pulls/7/reviews'],
    );
    const review = posts[0]!.body;
    assert.equal(review.commit_id, head);
    assert.deepEqual(
      review.comments.map((c: { path: string; line: number; side: string }) => `${c.path}:${c.line}:${c.side}`),
      [`src/price.js:${added}:RIGHT`],
    );
    assert.match(review.comments[0].body, /@\u200bsomeone/, 'mentions from the model are defused');
    assert.match(review.body, /src\/price\.js:1`: Line 1 is outside the diff/);
    assert.match(run.outputs, /^review-id=77$/m);
  });

  it('refuses a fork pull request without allow-forks: one comment saying why, keel never runs', async () => {
    const repo = failingTestsRepo();
    github = await startGitHubStandIn({
      permissions: { alice: 'admin' },
      pullRequest: {
        number: 12,
        base: { sha: SHA_A, ref: 'main', repo: { full_name: 'o/r' } },
        head: { sha: SHA_B, ref: 'patch-1', repo: { full_name: 'mallory/r', fork: true } },
      },
    });
    model = await startModelServer(fixerModel());
    const run = await runAction(repo, 'issue_comment', commentPayload('/keel fix it', 'alice', true), {
      GITHUB_TOKEN: TOKEN,
      GITHUB_API_URL: github.url,
      INPUT_CONFIG: configFile(model),
    });
    assert.equal(run.code, 1, run.stderr);
    assert.equal(github.posts().length, 1);
    assert.equal(github.posts()[0]!.path, '/repos/o/r/issues/12/comments');
    assert.match(github.posts()[0]!.body.body, /fork.*allow-forks: true/);
    assert.equal(model.requests.length, 0);
    assert.match(run.outputs, /^status=refused$/m);
  });

  it('a run that changes no file answers with one comment: the status and the answer', async () => {
    const repo = failingTestsRepo();
    github = await startGitHubStandIn({ permissions: { alice: 'admin' } });
    const run = await runAction(repo, 'issue_comment', commentPayload('/keel list the files', 'alice'), {
      GITHUB_TOKEN: TOKEN,
      GITHUB_API_URL: github.url,
      INPUT_PROVIDER: 'scripted',
    });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(
      github.posts().map((r) => r.path),
      ['/repos/o/r/issues/12/comments'],
    );
    assert.match(github.posts()[0]!.body.body, /^\*\*Keel: done\*\* — The task ended\.\n\nThe workspace listing came back/);
    assert.match(run.outputs, /^status=done$/m);
  });

  it('on a fork pull request, even with allow-forks, a config file inside the checkout is refused', async () => {
    const repo = failingTestsRepo();
    fs.writeFileSync(path.join(repo, 'keel.json'), JSON.stringify({ approve: 'all' }));
    github = await startGitHubStandIn({
      permissions: { alice: 'write' },
      pullRequest: {
        number: 12,
        base: { sha: SHA_A, ref: 'main', repo: { full_name: 'o/r' } },
        head: { sha: SHA_B, ref: 'patch-1', repo: { full_name: 'mallory/r', fork: true } },
      },
    });
    const run = await runAction(repo, 'issue_comment', commentPayload('/keel fix it', 'alice', true), {
      GITHUB_TOKEN: TOKEN,
      GITHUB_API_URL: github.url,
      INPUT_CONFIG: 'keel.json',
      'INPUT_ALLOW-FORKS': 'true',
    });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /^keel-action: on a fork pull request the config file must come from outside the checkout/);
    assert.equal(github.posts().length, 0);
  });

  it('when keel fails without a result, the asker is told in one comment and the job fails', async () => {
    const repo = failingTestsRepo();
    github = await startGitHubStandIn({ permissions: { alice: 'write' } });
    const config = path.join(scratchDir('action-config'), 'keel.json');
    fs.writeFileSync(config, JSON.stringify({ approve: 'all', notAKey: 1 }));
    const run = await runAction(repo, 'issue_comment', commentPayload('/keel fix', 'alice'), {
      GITHUB_TOKEN: TOKEN,
      GITHUB_API_URL: github.url,
      INPUT_CONFIG: config,
    });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /keel-action: keel run printed no JSON result/);
    assert.deepEqual(
      github.posts().map((r) => r.path),
      ['/repos/o/r/issues/12/comments'],
    );
    assert.match(github.posts()[0]!.body.body, /^Keel could not finish: keel run printed no JSON result/);
  });

  it('refuses a commenter without write permission', async () => {
    const repo = failingTestsRepo();
    github = await startGitHubStandIn({ permissions: { bob: 'read' } });
    model = await startModelServer(fixerModel());
    const run = await runAction(repo, 'issue_comment', commentPayload('/keel delete everything', 'bob'), {
      GITHUB_TOKEN: TOKEN,
      GITHUB_API_URL: github.url,
      INPUT_CONFIG: configFile(model),
    });
    assert.equal(run.code, 1);
    assert.match(run.stderr, /@bob has no write permission/);
    assert.deepEqual(
      github.posts().map((r) => r.path),
      ['/repos/o/r/issues/12/comments'],
    );
    assert.equal(model.requests.length, 0);
    assert.equal(git(repo, 'status', '--porcelain'), '');
  });

  it('ignores a comment that is not a /keel command', async () => {
    const repo = failingTestsRepo();
    github = await startGitHubStandIn({ permissions: { alice: 'write' } });
    const run = await runAction(repo, 'issue_comment', commentPayload('looks good, /keel later', 'alice'), {
      GITHUB_TOKEN: TOKEN,
      GITHUB_API_URL: github.url,
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(github.requests.length, 0);
  });

  it('without a token: one clear line, a non-zero exit, no request', async () => {
    const repo = failingTestsRepo();
    github = await startGitHubStandIn({ permissions: { alice: 'write' } });
    const run = await runAction(repo, 'issue_comment', commentPayload('/keel fix', 'alice'), { GITHUB_API_URL: github.url });
    assert.equal(run.code, 2);
    assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
    assert.match(run.stderr, /^keel-action: GITHUB_TOKEN is not set/);
    assert.equal(github.requests.length, 0);
  });

  it('a payload that is not JSON is one line, not a stack trace', async () => {
    const repo = failingTestsRepo();
    const bad = path.join(scratchDir('action-bad'), 'event.json');
    fs.writeFileSync(bad, '{not json');
    const run = await runAction(
      repo,
      'issue_comment',
      {},
      { GITHUB_TOKEN: TOKEN, GITHUB_API_URL: 'http://127.0.0.1:9', GITHUB_EVENT_PATH: bad },
    );
    assert.equal(run.code, 2);
    assert.match(run.stderr, /^keel-action: cannot read the event payload .*\n$/);
  });
});
