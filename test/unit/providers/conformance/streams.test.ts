// Issue 35 item 9: every vendor stream of the conformance suite through the real SDK, against a
// local server on 127.0.0.1, written whole, in one burst and in 1–24-byte pieces: each must give
// the kernel the same turn every time.
import assert from 'node:assert/strict';
import { createAnthropicProvider } from '../../../../src/providers/anthropic.js';
import { createOpenAIProvider } from '../../../../src/providers/openai.js';
import { startModelServer, type ModelServer } from '../../../support/model-server.js';
import { FAST_RETRY } from '../vendors.js';
import { ANTHROPIC_CASES } from './anthropic-cases.js';
import { CHAT_CASES } from './chat-cases.js';
import { CHAT_FAILURE_CASES } from './chat-failure-cases.js';
import { LOCAL_CASES } from './local-cases.js';
import { RESPONSES_CASES } from './responses-cases.js';
import { assertOutcome, collect, replyFor, WRITE_MODES, type StreamCase } from './cases.js';

function providerFor(c: StreamCase, server: ModelServer) {
  const common = { apiKey: 'sk-test', model: c.model, retry: FAST_RETRY };
  // A Responses case names a model the table sends there (gpt-5-codex): the adapter picks the API itself.
  return c.api === 'anthropic'
    ? createAnthropicProvider({ ...common, baseURL: server.anthropicBaseURL })
    : createOpenAIProvider({ ...common, baseURL: server.openaiBaseURL });
}

describe('provider conformance: what each vendor streams, in every write mode', function () {
  this.timeout(20_000);
  let server: ModelServer | undefined;
  afterEach(async () => server?.close());

  for (const c of [...ANTHROPIC_CASES, ...CHAT_CASES, ...CHAT_FAILURE_CASES, ...LOCAL_CASES, ...RESPONSES_CASES]) {
    for (const mode of WRITE_MODES) {
      it(`${c.name} (${mode})`, async () => {
        server = await startModelServer(() => replyFor(c, mode));
        const events = await collect(providerFor(c, server));
        assertOutcome(events, c.expect, server.requests.length);
        if (c.api === 'responses')
          assert.ok(
            server.requests.every((r) => r.path === '/v1/responses'),
            'sent to the Responses API',
          );
      });
    }
  }
});
