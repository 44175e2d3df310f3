// Issue 24 item 5: one provider registry. What cannot import it (package.json's setting, the
// command shell's list of variables commands never get, the adapters' own error text) is held
// equal to it here, so adding a vendor to the registry and forgetting one of them fails a test.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PROVIDER_KEY_VARIABLES } from '../../../src/node/command-shell.js';
import { DEFAULT_VENDOR, parseVendorId, pickerModels, VENDOR_IDS, VENDORS } from '../../../src/providers/registry.js';
import { capabilitiesFor, priceOf } from '../../../src/providers/models.js';
import type { ModelEvent } from '../../../src/kernel/index.js';

const ROOT = path.resolve(__dirname, '../../..');

interface ProviderSetting {
  enum: string[];
  default: string;
  enumDescriptions: string[];
}

function providerSetting(): ProviderSetting {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  return pkg.contributes.configuration.properties['keel.provider'];
}

describe('the provider registry (issue 24 item 5)', () => {
  it("keel.provider in package.json offers exactly the registry's vendors, the registry's default first", () => {
    const setting = providerSetting();
    assert.deepEqual(setting.enum, [...VENDOR_IDS]);
    assert.equal(setting.default, DEFAULT_VENDOR);
    assert.equal(setting.enumDescriptions.length, VENDOR_IDS.length, 'one description per vendor');
  });

  it('commands never get any vendor key variable (the command shell lists each)', () => {
    for (const v of VENDORS) assert.ok(PROVIDER_KEY_VARIABLES.includes(v.keyEnvVar), v.keyEnvVar);
  });

  it("each vendor's default model is priced and its picker lists it (a local server's: none, and said so)", () => {
    for (const v of VENDORS) {
      if ('defaultBaseUrl' in v) {
        // A local model costs nothing Keel could name, and the table lists none of them.
        assert.equal(priceOf(v.defaultModel), undefined, v.id);
        assert.deepEqual(pickerModels(v.id), [], v.id);
        continue;
      }
      // Vertex's price is its region's, which its ids do not say: none, and the registry says why.
      assert.equal(priceOf(v.defaultModel) === undefined, 'unpriced' in v, v.defaultModel);
      assert.ok(
        pickerModels(v.id).some((m) => m.id === v.defaultModel),
        `${v.id}: ${v.defaultModel}`,
      );
      for (const m of pickerModels(v.id)) assert.equal(capabilitiesFor(m.id).contextWindow, m.contextWindow, m.id);
    }
  });

  it("each factory builds the vendor's adapter, which names the registry's key variable when no key is set", async () => {
    // A local server's preset needs no key; Azure needs its endpoint first (tested with Azure); a
    // cloud's own credentials stand in for a key (tested with Bedrock and Vertex).
    for (const v of VENDORS.filter((x) => !('defaultBaseUrl' in x) && !('needsBaseUrl' in x) && !('cloudAuth' in x))) {
      const saved = process.env[v.keyEnvVar];
      delete process.env[v.keyEnvVar];
      try {
        const provider = v.create({ model: v.defaultModel });
        assert.equal(provider.name, v.id);
        const events: ModelEvent[] = [];
        for await (const e of provider.stream({ messages: [], tools: [], system: '' } as never, new AbortController().signal))
          events.push(e);
        const last = events.at(-1);
        assert.equal(last?.type, 'error');
        const message = last?.type === 'error' ? last.error.message : '';
        assert.ok(message.includes(v.keyEnvVar) && message.includes(v.label), message);
      } finally {
        if (saved !== undefined) process.env[v.keyEnvVar] = saved;
      }
    }
  });

  it('a setting naming no vendor (stale or hostile) is not a vendor', () => {
    for (const bad of ['scripted', 'Anthropic', '', undefined, 3, { id: 'openai' }]) assert.equal(parseVendorId(bad), undefined);
    for (const id of VENDOR_IDS) assert.equal(parseVendorId(id), id);
  });
});
