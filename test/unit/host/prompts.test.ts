import assert from 'node:assert/strict';
import { buildSystemPrompt } from '../../../src/compose/system-prompt.js';
import { buildFixTestsPrompt, taskTitleFrom } from '../../../src/host/session/prompts.js';

describe('host/prompts', () => {
  it('asks the model to run the tests, read failures and code, edit, and re-run until green', () => {
    const p = buildFixTestsPrompt();
    assert.match(p, /run them/i);
    assert.match(p, /Read the failures/);
    assert.match(p, /code under test/);
    assert.match(p, /Propose the smallest edits/);
    assert.match(p, /Re-run the tests/);
    assert.match(p, /until they all pass/);
  });

  it('names the test command when one is known', () => {
    assert.match(buildFixTestsPrompt({ testCommand: 'npm test' }), /`npm test`/);
  });

  it('says why nothing can be written in Restricted Mode', () => {
    const p = buildSystemPrompt({ workspaceRoot: '/w', platform: 'linux', trusted: false, toolNames: ['read_file'], rules: [] });
    assert.match(p, /Restricted Mode/);
    assert.match(p, /read_file/);
    const trusted = buildSystemPrompt({ workspaceRoot: '/w', platform: 'linux', trusted: true, toolNames: [], rules: [] });
    assert.doesNotMatch(trusted, /Restricted Mode/);
    assert.match(trusted, /No tools/);
  });

  it('teaches the loop: an edit, the problems its result lists, then the tests', () => {
    const p = buildSystemPrompt({ workspaceRoot: '/w', platform: 'linux', trusted: true, toolNames: ['edit_file'], rules: [] });
    assert.match(p, /an edit's result lists the problems it brought in .*; fix those first, then run the tests/);
  });

  it('titles a task from its first line', () => {
    assert.equal(taskTitleFrom('  Fix the bug\nin price.js'), 'Fix the bug');
    assert.equal(taskTitleFrom(''), 'New task');
    const long = taskTitleFrom('x'.repeat(100), 20);
    assert.equal(long.length, 20);
    assert.ok(long.endsWith('…'));
  });
});
