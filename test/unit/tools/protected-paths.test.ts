// Protected paths for hooks and prompt-shaping files (issue 33 items 1 and 5): Claude Code's
// folder (settings with hooks, the scripts beside them, agents, commands), Copilot's agents and
// prompt files, rules files by every common name — classified as written and as resolved, so a
// rules file that is a link keeps its protection — while look-alikes elsewhere stay writable.
// Through the policy on a real workspace: the model's write to AGENTS.md, to the file it links
// to, or to a script a hook runs asks even with writes approved.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createNodeWorkspace } from '../../../src/node/node-workspace.js';
import { protectedPathReason, protectedReason } from '../../../src/tools/policy/protected-paths.js';
import { createPolicy } from '../../../src/tools/index.js';
import { scratchDir } from '../../support/scratch.js';
import { proposedIntent, toolNamed } from './helpers.js';

describe('protected paths: hooks, agents, prompts and rules files', () => {
  it('protects .claude, .github/agents, .github/prompts and rules files by name; not look-alikes', () => {
    for (const rel of [
      '.claude/settings.json',
      '.claude/settings.local.json',
      '.claude/hooks/guard.sh',
      '.claude/agents/helper.md',
      '.claude/commands/ship.md',
      '.github/agents/deploy.agent.md',
      '.github/prompts/fix.prompt.md',
      'AGENTS.md',
      'packages/web/CLAUDE.md',
      'GEMINI.md',
      '.github/copilot-instructions.md',
      '.cursorrules',
    ])
      assert.ok(protectedReason(rel), rel);
    for (const rel of ['src/agents/index.ts', 'docs/prompts/intro.md', '.github/ISSUE_TEMPLATE/agent-bug.yml', 'claude.ts', 'README.md'])
      assert.equal(protectedReason(rel), undefined, rel);
  });

  it('classifies a path as written too: AGENTS.md that resolves elsewhere, ./x/../AGENTS.md', () => {
    assert.match(protectedPathReason('AGENTS.md', 'docs/team-rules.md') ?? '', /rules file/);
    assert.match(protectedPathReason('x/../AGENTS.md', 'notes.md') ?? '', /rules file/);
    assert.match(protectedPathReason('AGENTS.md', 'notes.md', 'pkg') ?? '', /rules file/);
    assert.equal(
      protectedPathReason('/somewhere/.claude/x/notes.md', 'notes.md'),
      undefined,
      'a machine folder of an absolute path is not the workspace’s',
    );
    assert.equal(protectedPathReason('notes.md', 'notes.md'), undefined);
  });

  it('the policy asks, with writes approved, about AGENTS.md, its link target and a script a hook runs', async () => {
    const root = path.join(scratchDir('protected-links'), 'ws');
    fs.mkdirSync(path.join(root, 'docs'), { recursive: true });
    fs.mkdirSync(path.join(root, 'scripts'));
    fs.mkdirSync(path.join(root, '.claude'));
    fs.writeFileSync(path.join(root, 'docs', 'team-rules.md'), '# Rules\n');
    fs.symlinkSync('docs/team-rules.md', path.join(root, 'AGENTS.md'));
    fs.writeFileSync(path.join(root, 'scripts', 'check.sh'), 'exit 0\n');
    fs.writeFileSync(path.join(root, 'scripts', 'other.sh'), 'exit 0\n');
    const hooks = { hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'sh "$CLAUDE_PROJECT_DIR"/scripts/check.sh' }] }] } };
    fs.writeFileSync(path.join(root, '.claude', 'settings.json'), JSON.stringify(hooks));
    const workspace = await createNodeWorkspace(root);
    const policy = createPolicy({ autoApprove: ['read', 'write'] });
    const decide = (p: string) =>
      policy.decide(proposedIntent('write_file', { path: p, content: 'x' }), { tool: toolNamed('write_file'), grants: [], workspace });
    for (const p of ['AGENTS.md', 'docs/team-rules.md', 'scripts/check.sh']) assert.equal((await decide(p)).type, 'ask', p);
    assert.match((await decide('docs/team-rules.md')).reason ?? '', /AGENTS\.md links to it/);
    assert.match((await decide('scripts/check.sh')).reason ?? '', /run by a hook \(\.claude\/settings\.json\)/);
    assert.equal((await decide('scripts/other.sh')).type, 'allow', 'a script no hook runs is an ordinary file');
  });
});
