// Issue 21 #15: the model button's list puts "Other model id…" and the provider switch first (a
// 1366×768 window hid them below the list), and lists each model once (no family aliases).
import assert from 'node:assert/strict';
import { modelChoices } from '../../../src/host/settings/model-choices.js';
import { capabilitiesFor } from '../../../src/providers/models.js';
import { pickerModels, VENDOR_IDS } from '../../../src/providers/registry.js';

describe('the model picker (issue 21 #15)', () => {
  it('offers another model id and the other provider before the models', () => {
    const choices = modelChoices({ provider: 'anthropic', model: 'claude-sonnet-5-5' });
    const others = VENDOR_IDS.filter((v) => v !== 'anthropic').map((to) => ({ type: 'switch', to }));
    assert.deepEqual(choices.slice(0, 1 + others.length), [{ type: 'other' }, ...others]);
    assert.ok(choices.slice(1 + others.length).every((c) => c.type === 'model'));
    assert.deepEqual(
      choices.filter((c) => c.type === 'model' && c.current).map((c) => c.type === 'model' && c.id),
      ['claude-sonnet-5-5'],
    );
  });

  it('lists each model once: a family name beside its versions at the same limits and price is left out', () => {
    for (const vendor of ['anthropic', 'openai'] as const) {
      const ids = pickerModels(vendor).map((m) => m.id);
      assert.equal(new Set(ids).size, ids.length);
      for (const alias of ['claude-sonnet-5', 'claude-opus-4', 'claude-sonnet-4']) assert.ok(!ids.includes(alias), alias);
    }
    assert.ok(
      pickerModels('anthropic').some((m) => m.id === 'claude-opus-4-1'),
      'distinct versions stay',
    );
    assert.ok(
      pickerModels('openai').some((m) => m.id === 'gpt-4o-mini'),
      'a different model of the same family stays',
    );
    assert.equal(
      capabilitiesFor('claude-sonnet-5').contextWindow,
      capabilitiesFor('claude-sonnet-5-5').contextWindow,
      'an alias still works when typed',
    );
  });
});
