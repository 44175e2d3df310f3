// Slash commands: the three formats Keel reads unchanged (.keel/commands, Claude Code's
// .claude/commands, GitHub Copilot's .github/prompts/*.prompt.md), problems named file:line,
// $ARGUMENTS and $1…$9 expanded, and a command's agent and tools turned into the profile the
// message is sent as (tools only narrow).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { commandCall, expandCommand } from '../../../src/compose/commands/command-file.js';
import { loadCommands, workspaceCommandSources } from '../../../src/compose/commands/load-commands.js';
import { expandSlash } from '../../../src/compose/commands/slash.js';
import { describeSkillProblem } from '../../../src/compose/skills/load-skills.js';
import type { LoadedAgent } from '../../../src/compose/agents/load-agents.js';
import { createNodeWorkspace } from '../../../src/node/node-workspace.js';
import { userSkillFolder } from '../../../src/node/skill-folder.js';
import { scratchDir } from '../../support/scratch.js';

const KNOWN = new Set(['read_file', 'list_files', 'search_files', 'edit_file', 'write_file', 'run_command']);

function put(root: string, rel: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
}

async function workspace(name: string) {
  const base = scratchDir(name);
  const root = path.join(base, 'ws');
  fs.mkdirSync(root);
  return { ws: await createNodeWorkspace(root), root, userDir: path.join(base, 'user-commands') };
}

describe('slash command files', () => {
  it('reads a Keel command, a Claude Code command and a Copilot prompt file unchanged', async () => {
    const { ws, root } = await workspace('commands-formats');
    put(
      root,
      '.keel/commands/fix-tests.md',
      '---\ndescription: Fix the failing tests\nargument-hint: [test-glob] [max]\ntools: [read_file, edit_file, run_command]\n---\nRun $1 and fix what fails.\n',
    );
    // Claude Code: front matter optional; allowed-tools is its field, ignored (tools only).
    put(root, '.claude/commands/review.md', 'Review the changes in $ARGUMENTS.\n');
    put(
      root,
      '.claude/commands/commit.md',
      '---\nallowed-tools: Bash(git add:*)\ndescription: Create a git commit\nmodel: claude-3-5-haiku-20241022\n---\nCommit with message $ARGUMENTS\n',
    );
    put(
      root,
      '.github/prompts/explain.prompt.md',
      "---\nmode: 'agent'\ntools: ['codebase', 'search']\ndescription: 'Explain a file'\n---\nExplain the file the user names.\n",
    );
    put(root, '.github/prompts/notes.md', 'not a prompt file: only *.prompt.md are read here');
    const { commands, problems } = await loadCommands(workspaceCommandSources(ws), KNOWN);
    assert.deepEqual(problems, []);
    assert.deepEqual(
      commands.map((c) => [
        c.name,
        c.file,
        c.description ?? null,
        c.argumentHint ?? null,
        c.tools ?? null,
        c.agent ?? null,
        c.model ?? null,
      ]),
      [
        ['commit', '.claude/commands/commit.md', 'Create a git commit', null, null, null, 'claude-3-5-haiku-20241022'],
        ['explain', '.github/prompts/explain.prompt.md', 'Explain a file', null, ['search_files', 'list_files'], null, null],
        [
          'fix-tests',
          '.keel/commands/fix-tests.md',
          'Fix the failing tests',
          '[test-glob] [max]',
          ['read_file', 'edit_file', 'run_command'],
          null,
          null,
        ],
        ['review', '.claude/commands/review.md', null, null, null, null, null],
      ],
    );
    assert.equal(commands[0]!.prompt, 'Commit with message $ARGUMENTS');
  });

  it('names the file and line of each problem, loads the others, and keeps the user folder first', async () => {
    const { ws, root, userDir } = await workspace('commands-problems');
    put(root, '.keel/commands/bad-tools.md', '---\ndescription: x\ntools: {a: 1}\n---\nBody\n');
    put(root, '.claude/commands/bad-yaml.md', '---\ndescription: [x\n---\nBody\n');
    put(root, '.claude/commands/Upper.md', 'Body');
    put(root, '.keel/commands/empty.md', '---\ndescription: nothing\n---\n');
    put(root, '.keel/commands/review.md', 'WORKSPACE');
    put(userDir, 'review.md', 'USER');
    const { commands, problems } = await loadCommands(
      [{ source: userSkillFolder(userDir), format: 'keel' }, ...workspaceCommandSources(ws)],
      KNOWN,
    );
    assert.deepEqual(
      commands.map((c) => [c.name, c.scope, c.prompt]),
      [['review', 'user', 'USER']],
    );
    const lines = problems.map(describeSkillProblem);
    assert.ok(lines.includes('.keel/commands/bad-tools.md:3: "tools" must be a list of tool names, or one line of them'), lines.join('\n'));
    assert.ok(
      lines.includes(
        '  .keel/commands/empty.md:1: the command has no prompt: write it after the front matter (or as the whole file)'.trim(),
      ),
      lines.join('\n'),
    );
    assert.ok(
      lines.some((l) => /^\.claude\/commands\/bad-yaml\.md:[23]: invalid YAML/.test(l)),
      lines.join('\n'),
    );
    assert.ok(
      lines.some((l) => l.startsWith('.claude/commands/Upper.md:1: the file name "Upper" cannot name a command')),
      lines.join('\n'),
    );
    assert.ok(
      lines.some((l) => l.startsWith('.keel/commands/review.md: skipped: a command named "review" was read before it')),
      lines.join('\n'),
    );
  });
});

describe('slash command expansion', () => {
  it('fills $ARGUMENTS and $1…$9 (quotes keep spaces), once, and appends arguments to a prompt without placeholders', () => {
    assert.equal(expandCommand('Fix $1 in $2; all: $ARGUMENTS', 'login "src/a b.ts"'), 'Fix login in src/a b.ts; all: login "src/a b.ts"');
    assert.equal(expandCommand('Use $3.', 'a b'), 'Use .');
    assert.equal(expandCommand('Say $1', '$ARGUMENTS'), 'Say $ARGUMENTS');
    assert.equal(expandCommand('Review.', 'src/x.ts'), 'Review.\n\nArguments: src/x.ts');
    assert.equal(expandCommand('Review.', '  '), 'Review.');
  });

  it('recognises a call only for a command-shaped first word', () => {
    assert.deepEqual(commandCall('/fix-tests unit'), { name: 'fix-tests', args: 'unit' });
    assert.deepEqual(commandCall('/review'), { name: 'review', args: '' });
    assert.equal(commandCall('/usr/bin/env fails'), undefined);
    assert.equal(commandCall('fix /tests'), undefined);
  });

  const base = { description: undefined, argumentHint: undefined, model: undefined, scope: 'workspace' as const, unknownTools: [] };
  const reviewer: LoadedAgent = {
    name: 'reviewer',
    file: '.keel/agents/reviewer.md',
    description: 'x',
    instructions: 'REVIEW',
    tools: ['read_file', 'search_files'],
    scope: 'workspace',
    unknownTools: [],
  };

  it('sends a command as its agent, its tools narrowing the agent (never widening); an unknown name is an error', () => {
    const commands = [
      {
        ...base,
        name: 'audit',
        file: '.keel/commands/audit.md',
        prompt: 'Audit $ARGUMENTS',
        agent: 'reviewer',
        tools: ['read_file', 'write_file'],
      },
      { ...base, name: 'look', file: '.claude/commands/look.md', prompt: 'Look', agent: undefined, tools: ['read_file'] },
      { ...base, name: 'lost', file: '.claude/commands/lost.md', prompt: 'x', agent: 'nobody', tools: undefined },
    ];
    const audit = expandSlash('/audit src', commands, [reviewer]);
    assert.deepEqual(audit, {
      type: 'expanded',
      text: 'Audit src',
      agent: { name: 'reviewer', file: '.keel/agents/reviewer.md', instructions: 'REVIEW', tools: ['read_file'] },
    });
    assert.deepEqual(expandSlash('/look', commands, []), {
      type: 'expanded',
      text: 'Look',
      agent: { name: '/look', file: '.claude/commands/look.md', instructions: '', tools: ['read_file'] },
    });
    assert.deepEqual(expandSlash('/nope x', commands, []), {
      type: 'error',
      message: 'there is no command "/nope" (the commands are: /audit, /look, /lost).',
    });
    assert.equal(expandSlash('/lost', commands, []).type, 'error');
    assert.deepEqual(expandSlash('plain text', commands, []), { type: 'plain' });
  });
});
