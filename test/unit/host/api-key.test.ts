import assert from 'node:assert/strict';
import { isLocalBaseUrl, lookupApiKey, missingKeyMessage, secretKeyName } from '../../../src/host/keys/api-key.js';

describe('host/api-key lookup order', () => {
  const secrets = (map: Record<string, string>) => (name: string) => map[name];

  it('prefers SecretStorage over the environment', async () => {
    const r = await lookupApiKey({
      provider: 'anthropic',
      baseUrl: '',
      readSecret: secrets({ [secretKeyName('anthropic')]: 'sk-secret' }),
      env: { ANTHROPIC_API_KEY: 'sk-env' },
    });
    assert.deepEqual(r, { kind: 'found', key: 'sk-secret', source: 'secret' });
  });

  it('falls back to the provider’s environment variable', async () => {
    const r = await lookupApiKey({
      provider: 'openai',
      baseUrl: '',
      readSecret: async () => undefined,
      env: { OPENAI_API_KEY: ' sk-o \n', ANTHROPIC_API_KEY: 'x' },
    });
    assert.deepEqual(r, { kind: 'found', key: 'sk-o', source: 'env' });
  });

  it('keeps each provider’s key apart', async () => {
    const r = await lookupApiKey({
      provider: 'openai',
      baseUrl: '',
      readSecret: secrets({ [secretKeyName('anthropic')]: 'sk-a' }),
      env: { ANTHROPIC_API_KEY: 'sk-env' },
    });
    assert.equal(r.kind, 'missing');
  });

  it('treats a blank secret as none', async () => {
    const r = await lookupApiKey({ provider: 'anthropic', baseUrl: '', readSecret: () => '   ', env: { ANTHROPIC_API_KEY: 'sk-env' } });
    assert.deepEqual(r, { kind: 'found', key: 'sk-env', source: 'env' });
  });

  it('lets a local OpenAI-compatible server run without a key', async () => {
    const r = await lookupApiKey({ provider: 'openai', baseUrl: 'http://127.0.0.1:8080/v1', readSecret: () => undefined, env: {} });
    assert.deepEqual(r, { kind: 'not_needed' });
  });

  it('still asks for a key for a remote base URL or for Anthropic', async () => {
    const remote = await lookupApiKey({ provider: 'openai', baseUrl: 'https://api.example.com/v1', readSecret: () => undefined, env: {} });
    assert.equal(remote.kind, 'missing');
    const anthropic = await lookupApiKey({ provider: 'anthropic', baseUrl: 'http://localhost:9000', readSecret: () => undefined, env: {} });
    assert.equal(anthropic.kind, 'missing');
    assert.ok(anthropic.kind === 'missing' && anthropic.message.includes('Keel: Set API Key'));
  });

  it('recognises local base URLs', () => {
    assert.ok(isLocalBaseUrl('http://localhost:11434/v1'));
    assert.ok(isLocalBaseUrl('http://127.0.0.5/v1'));
    assert.ok(isLocalBaseUrl('http://[::1]:8080'));
    assert.ok(!isLocalBaseUrl('http://localhost.example.com'));
    assert.ok(!isLocalBaseUrl('not a url'));
    assert.ok(!isLocalBaseUrl(undefined));
  });

  it('names the environment variable in the message', () => {
    assert.match(missingKeyMessage('openai'), /OPENAI_API_KEY/);
  });
});
