// package.json's settings and the code that reads them say the same thing: a default that has a
// constant in the kernel (src/kernel/limits.ts) or the host equals it, and the settings model,
// given nothing (or far too much), lands on package.json's default (or maximum). A change to one
// side alone fails here instead of showing users one number in the Settings editor and running another.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../../scripts/vsix.js';
import { DEFAULT_MAX_TURNS, SUBAGENT_DEFAULTS } from '../../../src/kernel/index.js';
import { readSettings, type SettingLevels } from '../../../src/host/settings/settings.js';
import { CHECKPOINT_DEFAULTS_MB, readCheckpointCaps } from '../../../src/host/settings/checkpoint-settings.js';

interface SettingSchema {
  default?: unknown;
  maximum?: number;
}

/** `contributes.configuration`'s properties, by name without the `keel.` prefix. */
function contributed(): Map<string, SettingSchema> {
  const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
  const sections = [manifest.contributes.configuration].flat() as { properties: Record<string, SettingSchema> }[];
  return new Map(sections.flatMap((s) => Object.entries(s.properties)).map(([key, schema]) => [key.replace(/^keel\./, ''), schema]));
}

const settings = contributed();
const schema = (key: string): SettingSchema => {
  const found = settings.get(key);
  if (!found) throw new Error(`package.json contributes no keel.${key}`);
  return found;
};
/** What readSettings makes of one setting set to `value` at user level, nothing else set. */
const readWith = (key: string, value: unknown) =>
  readSettings((k): SettingLevels | undefined => (k === key ? { globalValue: value } : undefined));

describe('package.json setting defaults', () => {
  it('the turn limits are the kernel’s constants', () => {
    assert.equal(schema('maxTurns').default, DEFAULT_MAX_TURNS);
    assert.equal(schema('subagents.maxTurns').default, SUBAGENT_DEFAULTS.maxTurns);
    assert.equal(schema('subagents.turnBudget').default, SUBAGENT_DEFAULTS.turnBudget);
  });

  it('the checkpoint caps are the host’s constants', () => {
    assert.equal(schema('checkpoints.maxSizeMB').default, CHECKPOINT_DEFAULTS_MB.store);
    assert.equal(schema('checkpoints.maxFileSizeMB').default, CHECKPOINT_DEFAULTS_MB.file);
    const caps = readCheckpointCaps(() => undefined);
    assert.equal(caps.maxBytes, CHECKPOINT_DEFAULTS_MB.store * 1024 * 1024);
    assert.equal(caps.maxFileBytes, CHECKPOINT_DEFAULTS_MB.file * 1024 * 1024);
  });

  it('the settings model, given nothing, reads package.json’s defaults', () => {
    const read = readSettings(() => undefined);
    assert.equal(read.maxTurns, schema('maxTurns').default);
    assert.equal(read.subagents.maxTurns, schema('subagents.maxTurns').default);
    assert.equal(read.subagents.turnBudget, schema('subagents.turnBudget').default);
    assert.deepEqual(read.autoApprove, schema('autoApprove').default);
  });

  it('the settings model caps a count where package.json’s maximum does', () => {
    assert.equal(readWith('maxTurns', 1e6).maxTurns, schema('maxTurns').maximum);
    assert.equal(readWith('subagents.maxTurns', 1e6).subagents.maxTurns, schema('subagents.maxTurns').maximum);
    assert.equal(readWith('subagents.turnBudget', 1e6).subagents.turnBudget, schema('subagents.turnBudget').maximum);
  });
});
