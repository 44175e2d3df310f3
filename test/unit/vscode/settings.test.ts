import assert from 'node:assert/strict';
import { readSettings } from '../../../src/vscode/settings.js';

describe('vscode/settings', () => {
  it('gives the documented defaults when nothing is set', () => {
    const s = readSettings(() => undefined);
    assert.deepEqual(s, {
      provider: 'anthropic',
      model: '',
      baseUrl: '',
      contextWindow: 0,
      maxTurns: 25,
      autoApprove: ['read'],
      commandsAllow: [],
      commandsDeny: [],
    });
  });

  it('reads and cleans what is set', () => {
    const values: Record<string, unknown> = {
      provider: 'openai',
      model: ' gpt-4o ',
      baseUrl: 'http://127.0.0.1:8080/v1',
      maxTurns: 7.9,
      autoApprove: ['write', 'bogus', 'read'],
      'commands.allow': ['npm test', '', 3],
      'commands.deny': ['rm -rf'],
    };
    const s = readSettings((k) => values[k]);
    assert.equal(s.provider, 'openai');
    assert.equal(s.model, 'gpt-4o');
    assert.equal(s.maxTurns, 7);
    assert.deepEqual(s.autoApprove, ['read', 'write']);
    assert.deepEqual(s.commandsAllow, ['npm test']);
    assert.deepEqual(s.commandsDeny, ['rm -rf']);
  });

  it("reads a model's context window, bounded, for local models Keel cannot know", () => {
    const window = (v: unknown) => readSettings((k) => (k === 'contextWindow' ? v : undefined)).contextWindow;
    assert.equal(window(131_072), 131_072);
    assert.equal(window(8192.7), 8192);
    assert.equal(window(0), 0, '0: the window Keel knows');
    assert.equal(window(-5), 0);
    assert.equal(window('lots'), 0);
    assert.equal(window(12), 2_048, 'a typo cannot starve every request');
  });

  it('rejects a nonsense turn limit and an unknown provider', () => {
    const s = readSettings((k) => ({ provider: 'gemini', maxTurns: -3 })[k]);
    assert.equal(s.provider, 'anthropic');
    assert.equal(s.maxTurns, 25);
  });
});
