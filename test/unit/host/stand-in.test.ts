// Issue 21 #10: the scripted demo (`npm start -- --stand-in`) needs no API key, so Keel must not
// ask to send one to it: its profile points at a local OpenAI-compatible server, which Keel runs
// without a key, and keeps the shell's keys out of the editor.
import assert from 'node:assert/strict';
import { lookupApiKey } from '../../../src/host/keys/api-key.js';
import { standInProfile } from '../../../scripts/stand-in.js';

describe('npm start -- --stand-in', () => {
  it('runs the stand-in without a key, even when the shell has one', async () => {
    const profile = standInProfile('http://127.0.0.1:4242/v1');
    const shell = { ANTHROPIC_API_KEY: 'sk-ant-real', OPENAI_API_KEY: 'sk-real' };
    const lookup = await lookupApiKey({
      provider: profile.settings['keel.provider'] as 'openai' | 'anthropic',
      baseUrl: profile.settings['keel.baseUrl'] as string,
      readSecret: () => undefined,
      env: { ...shell, ...profile.env },
    });
    assert.equal(lookup.kind, 'not_needed', 'no key found, none needed: nothing to ask about');
  });
});
