// The kernel's redaction: held keys whole and in pieces, and the spans the injected detector
// finds (here the real one, src/compose/secrets), in error messages and failed observations.
import assert from 'node:assert/strict';
import { secretDetector } from '../../../src/compose/index.js';
import { MemoryLogStore, REDACTED, redactEvent, type SecretDetector, redactSecrets as redactWith } from '../../../src/kernel/index.js';
import { ScriptedProvider } from '../../../src/providers/scripted.js';
import { makeRuntime, drain } from './helpers.js';

const redactSecrets = (text: string, known: readonly string[] = []) => redactWith(text, known, secretDetector());

describe('kernel/redact: no secret in an error message', () => {
  it('removes key-shaped text of every vendor', () => {
    const keys = [
      'sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789',
      'sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz_0123456789',
      'sk-AbCdEfGhIjKlMnOpQrSt0123',
      'AIzaSyAbCdEfGhIjKlMnOpQrStUvWxYz012345',
      'xai-AbCdEfGhIjKlMnOpQrStUvWxYz',
      'gsk_AbCdEfGhIjKlMnOpQrStUvWxYz',
    ];
    for (const key of keys) {
      const out = redactSecrets(`The connection failed (invalid key "${key}", retry later).`);
      assert.ok(!out.includes(key.slice(6)), out);
      assert.ok(out.includes(REDACTED), out);
      assert.match(out, /retry later/, 'the rest of the message stays');
    }
  });

  it('removes Authorization and x-api-key header values, whatever they hold', () => {
    const cases = [
      'Headers.append: "Bearer opaque-token.123" is an invalid header value.',
      'request headers: {"authorization": "Basic dXNlcjpwYXNz", "accept": "json"}',
      'x-api-key: my-company-gateway-token',
      "x-api-key='gw_1234567890'",
      'api_key=abcdef123456&model=x',
    ];
    for (const text of cases) {
      const out = redactSecrets(text);
      for (const secret of ['opaque-token.123', 'dXNlcjpwYXNz', 'my-company-gateway-token', 'gw_1234567890', 'abcdef123456'])
        assert.ok(!out.includes(secret), `${text} → ${out}`);
    }
    assert.match(redactSecrets('{"authorization": "Basic dXNlcjpwYXNz", "accept": "json"}'), /accept/);
  });

  it('removes a known key even when it is quoted in pieces or escaped', () => {
    const key = 'gateway-key-1234\nTAILPIECE99';
    for (const text of [
      `Headers.append: "Bearer ${key}" is an invalid header value.`,
      `value ${JSON.stringify(key)} rejected`,
      'the key ends in TAILPIECE99',
    ]) {
      const out = redactSecrets(text, [key]);
      assert.ok(!out.includes('gateway-key-1234') && !out.includes('TAILPIECE99'), out);
    }
  });

  it('leaves ordinary error text alone', () => {
    const text = 'Anthropic rejected the API key (401). Set it with “Keel: Set API Key” or the ANTHROPIC_API_KEY environment variable.';
    assert.equal(redactSecrets(text), text);
    assert.equal(redactSecrets('risk-execute task-1234567890 desk-abcdefghij'), 'risk-execute task-1234567890 desk-abcdefghij');
  });

  it('redacts the error events and failed observations it is given, and passes the rest through untouched', () => {
    const secret = 'sk-ant-api03-secretsecretsecret';
    const text = { type: 'text_delta', text: secret } as const;
    assert.equal(
      redactEvent(text, () => [secret]),
      text,
      'model text is not an error message',
    );
    const failed = redactEvent(
      { type: 'run_failed', error: { kind: 'network', message: `failed: ${secret}` } },
      () => [],
      secretDetector(),
    );
    assert.ok(failed.type === 'run_failed' && !failed.error.message.includes('secret'));
    const obs = redactEvent(
      { type: 'observation', observation: { intentId: 'i', ok: false, content: `boom x-api-key: ${secret}`, summary: secret } },
      () => [],
      secretDetector(),
    );
    assert.ok(obs.type === 'observation' && !JSON.stringify(obs).includes('secretsecret'));
  });

  it('is the runtime’s last line of defence: no logged error carries a key the host holds', async () => {
    const key = 'corp-gw-token-0123456789\nrest-of-it';
    const store = new MemoryLogStore();
    const leaky = new ScriptedProvider([]);
    // A provider that lets its HTTP client's message through unclassified.
    leaky.stream = async function* () {
      yield* [];
      throw new TypeError(`Headers.append: "Bearer ${key}" is an invalid header value.`);
    };
    const { runtime } = makeRuntime([], { provider: leaky, store, secrets: () => [key], secretDetector: secretDetector() });
    await drain(runtime.send('hi'));
    const logged = JSON.stringify(store.events);
    assert.match(logged, /run_failed/);
    for (const piece of ['corp-gw-token-0123456789', 'rest-of-it']) assert.ok(!logged.includes(piece), logged);
    assert.ok(!runtime.getState().lastError?.message.includes('rest-of-it'));
  });
});

describe('kernel/redact: output shape', () => {
  it('redacts each secret once, with a readable marker', () => {
    assert.equal(
      redactSecrets('Headers.append: "Bearer sk-ant-api03-abcdefghijkl" is invalid'),
      'Headers.append: "Bearer [redacted]" is invalid',
    );
    assert.equal(redactSecrets('x-api-key: sk-ant-api03-abcdefghijkl.'), 'x-api-key: [redacted].');
    assert.equal(redactSecrets('authorization: Bearer abc', ['abcd']), 'authorization: [redacted]');
  });

  it('replaces exactly the spans the injected detector reports, and only held keys without one', () => {
    const detector: SecretDetector = {
      find: (text) =>
        [...text.matchAll(/SECRET\d/g)].map((m) => ({ start: m.index!, end: m.index! + 7, kind: 'a test secret', rule: 't' })),
      inVariable: () => undefined,
    };
    assert.equal(redactWith('a SECRET1 b SECRET2 c', [], detector), `a ${REDACTED} b ${REDACTED} c`);
    assert.equal(redactWith('a SECRET1 b heldkey c', ['heldkey']), `a SECRET1 b ${REDACTED} c`);
    const event = redactEvent({ type: 'run_failed', error: { kind: 'network', message: 'x SECRET9' } }, () => [], detector);
    assert.ok(event.type === 'run_failed' && event.error.message === `x ${REDACTED}`);
  });
});
