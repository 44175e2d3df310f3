// Hooks in a composed run (the one path both hosts take): a PreToolUse hook blocks `rm -rf build`
// before the policy (no approval is asked) and the model's next request carries its reason; the
// matcher selects by Keel's or Claude Code's tool names; a hook's allow never approves; context
// reaches the model; a hook that times out or crashes blocks at a guarding point; hooks get
// run_command's scrubbed environment; workspace hooks need trust and the user's allowance of
// that exact definition; every run is a hook_ran event.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { composeRuntime } from '../../../src/compose/runtime.js';
import type { HookSettings } from '../../../src/compose/hooks/hook-port.js';
import type { ModelRequest, Runtime, RuntimeEvent } from '../../../src/kernel/index.js';
import { createNodeWorkspace } from '../../../src/node/node-workspace.js';
import { userSkillFolder } from '../../../src/node/skill-folder.js';
import { ScriptedProvider, textTurn, toolTurn, type Script } from '../../../src/providers/scripted.js';
import { scratchDir } from '../../support/scratch.js';

/** A guard as teams write one: reads the call on stdin, refuses `rm -rf build` with a reason. */
const BLOCK_RM = `#!/bin/sh
input=$(cat)
case "$input" in
  *'rm -rf build'*) echo "Deleting build/ is not allowed here: run npm run clean instead." >&2; exit 2 ;;
esac
exit 0
`;

function folder(name: string, files: Record<string, string>): string {
  const root = path.join(scratchDir(name), 'ws');
  fs.mkdirSync(path.join(root, 'build'), { recursive: true });
  fs.writeFileSync(path.join(root, 'build', 'out.js'), 'built\n');
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return root;
}

const keelHooks = (points: Record<string, unknown>) => JSON.stringify({ hooks: points }, null, 2);
const command = (cmd: string, matcher?: string, timeout?: number) => [
  { ...(matcher ? { matcher } : {}), hooks: [{ type: 'command', command: cmd, ...(timeout ? { timeout } : {}) }] },
];

interface Setup {
  script: Script;
  trusted?: boolean;
  interactive?: boolean;
  allow?: HookSettings['allowWorkspace'];
  user?: string;
  autoApprove?: ('read' | 'write' | 'execute')[];
}

async function compose(root: string, s: Setup) {
  const provider = new ScriptedProvider(s.script);
  const asked: string[] = [];
  const runtime = composeRuntime({
    provider,
    settings: { maxTurns: 6, autoApprove: s.autoApprove ?? ['read'], commandsAllow: [], commandsDeny: [] },
    workspace: await createNodeWorkspace(root),
    trusted: () => s.trusted ?? true,
    interactive: s.interactive ?? false,
    hooks: {
      ...(s.user ? { user: userSkillFolder(s.user) } : {}),
      allowWorkspace: (hooks, hash, scripts) => {
        asked.push(hash);
        return s.allow ? s.allow(hooks, hash, scripts) : true;
      },
      // These workspaces have no OS sandbox; the red team (test/unit/redteam/hooks) runs them in one.
      unsandboxed: true,
    },
  });
  return { runtime, provider, asked };
}

async function drain(runtime: Runtime, text: string, onApproval?: (id: string) => void): Promise<void> {
  for await (const out of runtime.send(text)) {
    if (out.kind !== 'event' || out.event.type !== 'approval_requested') continue;
    // Nobody to ask in these runs unless the test answers.
    if (onApproval) onApproval(out.event.intentId);
    else runtime.reject(out.event.intentId, '', { unanswered: true });
  }
}

const ofType = <T extends RuntimeEvent['type']>(r: Runtime, type: T) =>
  r.getEvents().filter((e): e is Extract<RuntimeEvent, { type: T }> => e.type === type);
const toolResults = (req: ModelRequest) =>
  req.messages.filter((m) => m.role === 'tool_result').map((m) => (m as { content: string }).content);

describe('hooks in a composed run', () => {
  it('a PreToolUse hook blocks rm -rf build before the policy: no approval asked, build/ kept, the model told why', async () => {
    const root = folder('hooks-block', {
      '.keel/block-rm.sh': BLOCK_RM,
      '.keel/hooks.json': keelHooks({ PreToolUse: command('sh .keel/block-rm.sh', 'run_command') }),
    });
    const { runtime, provider } = await compose(root, {
      script: [toolTurn('run_command', { command: 'rm -rf build' }), textTurn('understood')],
      interactive: true,
    });
    await drain(runtime, 'clean up', (id) => runtime.approve(id));
    assert.equal(ofType(runtime, 'approval_requested').length, 0, 'no approval card for a blocked call');
    assert.ok(fs.existsSync(path.join(root, 'build', 'out.js')), 'build/ is still there');
    const [ran] = ofType(runtime, 'hook_ran');
    assert.equal(ran?.outcome, 'block');
    assert.equal(ran?.point, 'PreToolUse');
    assert.equal(ran?.tool, 'run_command');
    assert.match(ran?.source ?? '', /^\.keel\/hooks\.json:\d+$/);
    const next = toolResults(provider.requests[1]!).join('\n');
    assert.match(next, /Deleting build\/ is not allowed here: run npm run clean instead\./);
    assert.match(next, /Blocked by a hook/);
  });

  it("the matcher selects by Keel's tool name or Claude Code's (Bash, Edit|Write), and leaves other tools alone", async () => {
    const claude = {
      permissions: { allow: ['Bash(npm test:*)'] },
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: 'cat > /dev/null; echo bash-hook >> .hook-log' }] },
          { matcher: 'Edit|Write', hooks: [{ type: 'command', command: 'cat > /dev/null; echo write-hook >> .hook-log' }] },
        ],
      },
    };
    const root = folder('hooks-matcher', {
      '.claude/settings.json': JSON.stringify(claude, null, 2),
      'a.txt': 'a\n',
    });
    const { runtime } = await compose(root, {
      script: [
        toolTurn('read_file', { path: 'a.txt' }),
        toolTurn('write_file', { path: 'b.txt', content: 'b\n' }, '', 'c2'),
        toolTurn('run_command', { command: 'echo hi' }, '', 'c3'),
        textTurn('done'),
      ],
      autoApprove: ['read', 'write', 'execute'],
    });
    await drain(runtime, 'go');
    const ran = ofType(runtime, 'hook_ran').map((e) => e.tool);
    assert.deepEqual(ran, ['write_file', 'run_command'], 'read_file matched no hook');
    assert.deepEqual(fs.readFileSync(path.join(root, '.hook-log'), 'utf8').trim().split('\n'), ['write-hook', 'bash-hook']);
  });

  it("a hook's allow (Claude Code's permissionDecision allow) approves nothing: a call the policy asks about still waits", async () => {
    const allow = `cat > /dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"fine"}}'`;
    const root = folder('hooks-allow', { '.claude/settings.json': JSON.stringify({ hooks: { PreToolUse: command(allow, 'Bash') } }) });
    const { runtime } = await compose(root, {
      script: [toolTurn('run_command', { command: 'rm -rf build' }), textTurn('ok')],
      interactive: true,
    });
    await drain(runtime, 'clean', (id) => runtime.reject(id, 'no'));
    assert.equal(ofType(runtime, 'hook_ran')[0]?.outcome, 'allow');
    assert.equal(ofType(runtime, 'approval_requested').length, 1, 'the policy still asked');
    assert.equal(ofType(runtime, 'intent_approved').length, 0, 'nothing was approved');
    assert.ok(fs.existsSync(path.join(root, 'build', 'out.js')));
  });

  it("a hook's ask (permissionDecision ask) puts a call the policy would run unasked to the user", async () => {
    const ask = `cat > /dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"secrets live in config/"}}'`;
    const root = folder('hooks-ask', {
      '.claude/settings.json': JSON.stringify({ hooks: { PreToolUse: command(ask, 'Read') } }),
      'a.txt': 'a\n',
    });
    const { runtime } = await compose(root, { script: [toolTurn('read_file', { path: 'a.txt' }), textTurn('ok')], interactive: true });
    await drain(runtime, 'read it', (id) => runtime.reject(id, 'not now'));
    const [asked] = ofType(runtime, 'approval_requested');
    assert.match(asked?.reason ?? '', /A hook asks: .*secrets live in config\//);
    assert.equal(ofType(runtime, 'intent_approved').length, 0, 'the read (auto-approved) waited for the user');
  });

  it('context from UserPromptSubmit and PostToolUse reaches the model through the log', async () => {
    const post = `cat > /dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"Reminder: run npm run lint after edits."}}'`;
    const root = folder('hooks-context', {
      '.keel/hooks.json': keelHooks({
        UserPromptSubmit: command('cat > /dev/null; echo "The release branch is frozen."'),
        PostToolUse: command(post, 'read_file'),
      }),
      'a.txt': 'a\n',
    });
    const { runtime, provider } = await compose(root, { script: [toolTurn('read_file', { path: 'a.txt' }), textTurn('ok')] });
    await drain(runtime, 'look at a.txt');
    const first = provider.requests[0]!.messages.find((m) => m.role === 'user') as { text: string };
    assert.match(first.text, /look at a\.txt[\s\S]*The release branch is frozen\./);
    assert.match(toolResults(provider.requests[1]!).join('\n'), /Reminder: run npm run lint after edits\./);
    assert.equal(ofType(runtime, 'user_message')[0]?.hookContext, 'The release branch is frozen.');
  });

  it('a UserPromptSubmit block keeps the message from the model', async () => {
    const root = folder('hooks-prompt-block', {
      '.keel/hooks.json': keelHooks({ UserPromptSubmit: command('cat > /dev/null; echo "no secrets in prompts" >&2; exit 2') }),
    });
    const { runtime, provider } = await compose(root, { script: [textTurn('never')] });
    await drain(runtime, 'my password is hunter2');
    assert.equal(provider.requests.length, 0);
    assert.equal(ofType(runtime, 'user_message').length, 0);
    assert.equal(ofType(runtime, 'hook_ran')[0]?.reason, 'no secrets in prompts');
  });

  it('a PreToolUse hook that times out or crashes blocks the call, naming the hook; a crashing PostToolUse hook does not', async () => {
    const root = folder('hooks-fail', {
      '.keel/hooks.json': keelHooks({
        PreToolUse: [
          { matcher: 'write_file', hooks: [{ type: 'command', command: 'sleep 5', timeout: 1 }] },
          { matcher: 'list_files', hooks: [{ type: 'command', command: 'echo boom >&2; exit 1' }] },
        ],
        PostToolUse: command('exit 3', 'read_file'),
      }),
      'a.txt': 'a\n',
    });
    const { runtime } = await compose(root, {
      script: [
        toolTurn('write_file', { path: 'x.txt', content: 'x' }),
        toolTurn('list_files', { path: '.' }, '', 'c2'),
        toolTurn('read_file', { path: 'a.txt' }, '', 'c3'),
        textTurn('ok'),
      ],
      autoApprove: ['read', 'write'],
    });
    const started = Date.now();
    await drain(runtime, 'go');
    assert.ok(Date.now() - started < 4500, 'the sleeping hook was ended at its timeout');
    const obs = ofType(runtime, 'observation').map((e) => e.observation);
    assert.equal(obs[0]?.ok, false);
    assert.match(obs[0]!.content, /sleep 5 \(\.keel\/hooks\.json:\d+\): timed out after 1 s/);
    assert.ok(!fs.existsSync(path.join(root, 'x.txt')));
    assert.equal(obs[1]?.ok, false);
    assert.match(obs[1]!.content, /exit status 1: boom/);
    assert.equal(obs[2]?.ok, true, 'PostToolUse fails open');
    assert.deepEqual(
      ofType(runtime, 'hook_ran').map((e) => e.outcome),
      ['error', 'error', 'error'],
    );
  });

  it("a hook gets run_command's scrubbed environment: no provider key from the parent", async () => {
    const root = folder('hooks-env', {
      '.keel/hooks.json': keelHooks({
        UserPromptSubmit: command('cat > /dev/null; echo "key=${ANTHROPIC_API_KEY:-none} dir=$KEEL_PROJECT_DIR"'),
      }),
    });
    const before = process.env.ANTHROPIC_API_KEY;
    process.env.ANTHROPIC_API_KEY = 'sk-ant-hook-test-0123456789';
    try {
      const { runtime } = await compose(root, { script: [textTurn('ok')] });
      await drain(runtime, 'hi');
      const context = ofType(runtime, 'user_message')[0]?.hookContext ?? '';
      assert.equal(context, `key=none dir=${fs.realpathSync(root)}`);
    } finally {
      if (before === undefined) delete process.env.ANTHROPIC_API_KEY;
      else process.env.ANTHROPIC_API_KEY = before;
    }
  });

  it("an untrusted workspace runs none of its hooks (the user's still run)", async () => {
    const root = folder('hooks-untrusted', { '.keel/hooks.json': keelHooks({ UserPromptSubmit: command('echo workspace') }) });
    const user = scratchDir('hooks-user');
    fs.writeFileSync(path.join(user, 'hooks.json'), keelHooks({ UserPromptSubmit: command('echo user') }));
    const { runtime, asked } = await compose(root, { script: [textTurn('ok')], trusted: false, user });
    await drain(runtime, 'hi');
    assert.deepEqual(asked, [], 'nothing asked: untrusted workspace hooks are not even read');
    assert.equal(ofType(runtime, 'user_message')[0]?.hookContext, 'user');
  });

  it('workspace hooks run only when that exact definition is allowed; a changed file asks again', async () => {
    const root = folder('hooks-approval', { '.keel/hooks.json': keelHooks({ UserPromptSubmit: command('echo first') }) });
    const allowed = new Set<string>();
    const { runtime, asked } = await compose(root, {
      script: [textTurn('a'), textTurn('b'), textTurn('c')],
      allow: (_hooks, hash) => allowed.has(hash),
    });
    await drain(runtime, 'one');
    assert.equal(ofType(runtime, 'hook_ran').length, 0, 'not allowed: not run');
    allowed.add(asked[0]!);
    // The same text is cached with its answer; a new definition is asked about again.
    fs.writeFileSync(path.join(root, '.keel/hooks.json'), keelHooks({ UserPromptSubmit: command('echo second') }));
    await drain(runtime, 'two');
    assert.equal(asked.length, 2);
    assert.notEqual(asked[1], asked[0]);
    assert.equal(ofType(runtime, 'hook_ran').length, 0, 'the changed definition did not run');
    fs.writeFileSync(path.join(root, '.keel/hooks.json'), keelHooks({ UserPromptSubmit: command('echo first') }));
    await drain(runtime, 'three');
    assert.equal(ofType(runtime, 'hook_ran').length, 1, 'the allowed definition runs');
  });
});
