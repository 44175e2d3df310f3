// The names teams write in an agent's or command's `model` — Claude Code's aliases, Copilot's
// display names, API ids — map to a model of one vendor Keel knows, or to nothing; and a task's
// provider switches only within its own vendor (keys and endpoints are per vendor).
import assert from 'node:assert/strict';
import { createModelProvider, switchModel } from '../../../src/compose/provider.js';
import type { ModelProvider } from '../../../src/kernel/index.js';
import { resolveModelName } from '../../../src/providers/model-names.js';

describe('providers/model-names: what an agent’s model names', () => {
  it('maps aliases, display names and ids to a vendor’s model; inherit and the unknown stay apart', () => {
    const table: [string, string][] = [
      ['sonnet', 'anthropic:claude-sonnet-5-5'],
      ['opus', 'anthropic:claude-opus-4-5'],
      ['Haiku', 'anthropic:claude-haiku-4-5'],
      ['Claude Sonnet 4', 'anthropic:claude-sonnet-4-0'],
      ['Claude Sonnet 4.5', 'anthropic:claude-sonnet-4-5'],
      ['Claude Opus 4.5 (Preview)', 'anthropic:claude-opus-4-5'],
      ['claude-opus-4-1', 'anthropic:claude-opus-4-1'],
      ['claude-opus-4-1-20250805', 'anthropic:claude-opus-4-1-20250805'],
      ['GPT-4.1', 'openai:gpt-4.1'],
      ['GPT-5 mini (copilot)', 'openai:gpt-5-mini'],
      ['gpt-4o', 'openai:gpt-4o'],
      ['inherit', 'inherit'],
      [' ', 'inherit'],
      ['Gemini 2.5 Pro', 'unknown'],
      ['o3', 'unknown'],
      ['claude-sonnet-9', 'unknown'],
      ['sonnet-ish', 'unknown'],
    ];
    for (const [written, expected] of table) {
      const name = resolveModelName(written);
      assert.equal(name.type === 'model' ? `${name.vendor}:${name.id}` : name.type, expected, written);
    }
  });

  it('switches within the task’s vendor only; another vendor’s or an unknown model keeps the task’s', () => {
    const made: string[] = [];
    const make = (model: string) => {
      made.push(model);
      return { model } as ModelProvider;
    };
    assert.equal(switchModel('anthropic', 'claude-sonnet-5-5', 'opus', make).type, 'switched');
    assert.deepEqual(switchModel('anthropic', 'claude-sonnet-5-5', 'GPT-4.1', make), { type: 'kept', reason: 'other_vendor' });
    assert.deepEqual(switchModel('openai', 'gpt-4o', 'sonnet', make), { type: 'kept', reason: 'other_vendor' });
    assert.deepEqual(switchModel('openai', 'gpt-4o', 'Gemini 2.5 Pro', make), { type: 'kept', reason: 'unknown' });
    assert.deepEqual(switchModel('openai', 'gpt-4o', 'inherit', make), { type: 'same' });
    assert.deepEqual(switchModel('openai', 'gpt-4o', 'GPT-4o', make), { type: 'same' });
    assert.deepEqual(made, ['claude-opus-4-5'], 'a provider is made only for a switch');
  });

  it('the composed provider offers the switch, and the switched one can switch again', () => {
    const base = createModelProvider({ provider: 'openai', model: 'gpt-4o', baseUrl: 'http://127.0.0.1:9/v1' }, 'sk-test');
    const choice = base.withModel!('GPT-4.1');
    assert.equal(choice.type, 'switched');
    const switched = choice.type === 'switched' ? choice.provider : base;
    assert.equal(switched.model, 'gpt-4.1');
    assert.equal(switched.name, base.name);
    assert.equal(switched.withModel!('gpt-4o').type, 'switched', 'the switched provider can switch again (a sub-agent of an agent)');
  });
});
