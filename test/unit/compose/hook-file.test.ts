// Hooks files as written: Keel's .keel/hooks.json and Claude Code's settings.json read unchanged
// (its other keys ignored, its event names mapped), and each problem reported with its line while
// the rest of the file still loads.
import assert from 'node:assert/strict';
import { matcherSelects, parseHookFile } from '../../../src/compose/hooks/hook-file.js';

/** A project settings file as Claude Code's hooks reference documents the format. */
const CLAUDE_SETTINGS = `{
  "permissions": {
    "allow": ["Bash(npm run lint)", "Bash(npm test:*)"],
    "deny": ["Read(./.env)"]
  },
  "env": { "NODE_ENV": "development" },
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          { "type": "command", "command": "\\"$CLAUDE_PROJECT_DIR\\"/.claude/hooks/check-bash.sh", "timeout": 30 }
        ]
      }
    ],
    "PostToolUse": [
      {
        "matcher": "Edit|MultiEdit|Write",
        "hooks": [{ "type": "command", "command": "npx prettier --write \\"$(jq -r .tool_input.file_path)\\"" }]
      }
    ],
    "UserPromptSubmit": [{ "hooks": [{ "type": "command", "command": "python3 .claude/hooks/prompt-guard.py" }] }],
    "SessionStart": [{ "matcher": "startup", "hooks": [{ "type": "command", "command": "cat .claude/context.md" }] }],
    "Stop": [{ "hooks": [{ "type": "command", "command": "npm run lint --silent" }] }],
    "PreCompact": [{ "hooks": [{ "type": "command", "command": "echo compacting" }] }],
    "Notification": [{ "hooks": [{ "type": "command", "command": "notify-send 'Claude Code' 'Awaiting your input'" }] }]
  }
}
`;

describe('hooks files', () => {
  it("reads Claude Code's settings.json unchanged: its events mapped to Keel's points, other keys ignored", () => {
    const { hooks, problems } = parseHookFile(CLAUDE_SETTINGS, 'claude', '.claude/settings.json');
    assert.deepEqual(
      hooks.map((h) => [h.point, h.matcher ?? '', h.timeout ?? 0, h.line]),
      [
        ['PreToolUse', 'Bash', 30, 12],
        ['PostToolUse', 'Edit|MultiEdit|Write', 0, 19],
        ['UserPromptSubmit', '', 0, 22],
        ['TaskStart', 'startup', 0, 23],
        ['TaskEnd', '', 0, 24],
        ['PreFold', '', 0, 25],
      ],
    );
    assert.equal(hooks[0]!.command, '"$CLAUDE_PROJECT_DIR"/.claude/hooks/check-bash.sh');
    assert.deepEqual(problems, [
      {
        line: 26,
        message:
          '"Notification" is not a point Keel runs hooks at (PreToolUse, PostToolUse, UserPromptSubmit, SessionStart, Stop, PreCompact); skipped',
      },
    ]);
  });

  it("reads Keel's hooks.json with Keel's point names", () => {
    const text = JSON.stringify(
      {
        hooks: {
          PreFold: [{ hooks: [{ type: 'command', command: 'echo fold' }] }],
          TaskEnd: [{ hooks: [{ type: 'command', command: 'echo end' }] }],
        },
      },
      null,
      2,
    );
    const { hooks, problems } = parseHookFile(text, 'keel', '.keel/hooks.json');
    assert.deepEqual(problems, []);
    assert.deepEqual(
      hooks.map((h) => h.point),
      ['PreFold', 'TaskEnd'],
    );
  });

  it('reports each problem with its line and loads the rest; a bad matcher keeps its hook, marked to block', () => {
    const text = `{
  "hooks": {
    "PreToolUse": [
      { "matcher": "Bash(", "hooks": [{ "type": "command", "command": "x" }] },
      { "matcher": "run_command", "hooks": [{ "type": "prompt", "prompt": "is this safe?" }] },
      { "matcher": "run_command", "hooks": [{ "type": "command" }] },
      { "matcher": "run_command", "hooks": [{ "type": "command", "command": "ok.sh" }] }
    ],
    "Stop": []
  }
}`;
    const { hooks, problems } = parseHookFile(text, 'keel', '.keel/hooks.json');
    assert.deepEqual(
      hooks.map((h) => [h.command, h.line, h.brokenMatcher !== undefined]),
      [
        ['x', 4, true],
        ['ok.sh', 7, false],
      ],
    );
    assert.deepEqual(
      problems.map((p) => p.line),
      [4, 5, 6, 9],
    );
    assert.match(problems[0]!.message, /matcher "Bash\(" is not a valid pattern .*its hooks block every call/);
    assert.match(problems[1]!.message, /hook type "prompt" is not run by Keel/);
    assert.match(problems[3]!.message, /"Stop" is not a point Keel runs hooks at/);
  });

  it('"matcher": "*" is every tool: the hook loads, unmarked (it used to fail to compile and vanish)', () => {
    const text = JSON.stringify({ hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: 'guard.sh' }] }] } });
    const { hooks, problems } = parseHookFile(text, 'claude', '.claude/settings.json');
    assert.deepEqual(problems, []);
    assert.deepEqual(
      hooks.map((h) => [h.command, h.matcher, h.brokenMatcher]),
      [['guard.sh', '*', undefined]],
    );
  });

  it('a file that is not JSON loads nothing and says where', () => {
    const { hooks, problems } = parseHookFile('{\n  "hooks": {\n    "PreToolUse": [,]\n  }\n}\n', 'keel', '.keel/hooks.json');
    assert.deepEqual(hooks, []);
    assert.equal(problems.length, 1);
    assert.equal(problems[0]!.line, 3);
    assert.match(problems[0]!.message, /not valid JSON/);
  });

  it("matches Claude Code's matchers: exact, alternatives, patterns, '*' and empty for every tool", () => {
    assert.ok(matcherSelects('Bash', ['run_command', 'Bash']));
    assert.ok(!matcherSelects('Bash', ['run_commandX']));
    assert.ok(!matcherSelects('Bas', ['Bash']), 'a matcher matches the whole name');
    assert.ok(matcherSelects('Edit|Write', ['write_file', 'Write']));
    assert.ok(matcherSelects('mcp__.*', ['mcp__github__create_issue']));
    assert.ok(matcherSelects('*', ['read_file']));
    assert.ok(matcherSelects('', ['read_file']));
    assert.ok(matcherSelects(undefined, ['read_file']));
  });
});
