// Headless runs that do real work: `keel run --approve all` runs a script and a build,
// `--allow-command make` runs make and nothing else, and under --approve all a deny rule, a
// dangerous command, a protected path and paths outside the workspace are still refused.
// The real CLI, a model stand-in speaking the Anthropic wire format, real bash, node and make.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { conversation, startModelServer, type ModelServer } from '../../support/model-server.js';
import type { WireToolCall } from '../../support/model-turn.js';
import { scratchDir } from '../../support/scratch.js';

/** The runs' config folder (their memory store), so the tests never touch the user's. */
const CONFIG = scratchDir('cli-config');
/** Their cache folder (the checkpoint store), likewise. */
const CACHE = scratchDir('cli-cache');

const ROOT = path.resolve(__dirname, '../../..');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function keel(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import=tsx', path.join(ROOT, 'src/cli/main.ts'), ...args], {
      cwd: ROOT,
      env: { ...process.env, XDG_CONFIG_HOME: CONFIG, XDG_CACHE_HOME: CACHE, ANTHROPIC_API_KEY: 'test-key' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const command = (line: string, cwd?: string): WireToolCall => ({
  name: 'run_command',
  input: cwd ? { command: line, cwd } : { command: line },
});

describe('keel run: commands in a headless run', function () {
  this.timeout(60_000);
  let server: ModelServer | undefined;
  let work: string;
  let outside: string;

  beforeEach(() => {
    const base = scratchDir('cli-commands');
    work = path.join(base, 'project');
    outside = path.join(base, 'outside.txt');
    fs.mkdirSync(path.join(work, '.git'), { recursive: true });
    fs.writeFileSync(path.join(work, 'script.js'), "require('fs').writeFileSync('script-ran.txt', 'yes');\n");
    fs.writeFileSync(path.join(work, 'Makefile'), 'all:\n\techo made > make-ran.txt\n');
  });
  afterEach(async () => server?.close());

  /** One model turn proposing `calls`, then a closing answer; runs keel with `flags`. */
  async function runWith(flags: string[], calls: WireToolCall[]): Promise<Run> {
    server = await startModelServer(conversation([{ toolCalls: calls }, { text: ['Finished.'] }]));
    return keel(['run', '--workspace', work, '--base-url', server.anthropicBaseURL, ...flags, 'build it']);
  }
  const made = (file: string) => fs.existsSync(path.join(work, file));

  it('--approve all runs `node script.js` and `make`', async () => {
    const run = await runWith(['--approve', 'all'], [command('node script.js'), command('make')]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.ok(made('script-ran.txt'), run.stdout);
    assert.ok(made('make-ran.txt'), run.stdout);
  });

  it('--allow-command make runs make and nothing else', async () => {
    const run = await runWith(['--allow-command', 'make'], [command('node script.js'), command('make'), command('makeup')]);
    assert.equal(run.code, 3, run.stdout + run.stderr); // 3: calls were refused
    assert.ok(made('make-ran.txt'), run.stdout);
    assert.ok(!made('script-ran.txt'), 'node script.js was not allowed');
    assert.match(run.stdout, /not run, nobody to approve it: run_command node script\.js/);
    assert.match(run.stdout, /not run, nobody to approve it: run_command makeup/);
    // The text output ends saying so, never "✓ done" on a refusal's exit 3.
    assert.doesNotMatch(run.stdout, /✓ done/);
    assert.match(
      run.stdout,
      /\n⚠ ended with refusals \(exit 3\): 2 call\(s\) refused or not approved: run_command, run_command\.\ncontext /,
    );
  });

  it('under --approve all, deny rules, dangerous commands, protected and outside paths are refused', async () => {
    const run = await runWith(
      ['--approve', 'all', '--deny-command', 'make'],
      [
        command('make'),
        command('sudo node script.js'),
        command('node script.js', '..'),
        { name: 'write_file', input: { path: '.git/config', content: '[core]\n\tfsmonitor = evil\n' } },
        { name: 'write_file', input: { path: '../outside.txt', content: 'escaped' } },
      ],
    );
    assert.equal(run.code, 3, run.stdout + run.stderr);
    assert.ok(!made('make-ran.txt'), 'make is denied');
    assert.ok(!made('script-ran.txt') && !fs.existsSync(path.join(work, '..', 'script-ran.txt')), 'no script ran');
    assert.ok(!made('.git/config'), 'the protected path was not written');
    assert.ok(!fs.existsSync(outside), 'nothing was written outside the workspace');
    // Four refused by rule or path, and sudo refused because nobody can approve it (no person rejected it).
    assert.equal((run.stdout.match(/↳ permission_denied/g) ?? []).length, 5, run.stdout);
    assert.match(run.stdout, /not run, nobody to approve it: run_command sudo node script\.js/);
  });

  it('explains the flags in --help, and refuses a prefix with shell operators', async () => {
    const help = await keel(['run', '--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /--allow-command PREFIX/);
    assert.match(help.stdout, /--approve all[\s\S]*cannot classify[\s\S]*dangerous commands/);
    const bad = await keel(['run', '--allow-command', 'make; rm -rf .', 'x']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--allow-command takes plain words/);
  });
});
