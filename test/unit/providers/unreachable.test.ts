// A model server that is not there, through each real SDK: a port nothing listens on fails the
// turn at once — no retries, which could not help — with a message naming the URL the request
// went to and the cause (ECONNREFUSED), never the SDKs' "Connection error." or fetch's "fetch failed".
import assert from 'node:assert/strict';
import type { ModelEvent } from '../../../src/kernel/index.js';
import { startModelServer } from '../../support/model-server.js';
import { VENDORS, run, typesOf } from './vendors.js';

for (const vendor of VENDORS) {
  describe(`${vendor.name} provider: a refused connection`, function () {
    this.timeout(10_000);

    it('names the URL and ECONNREFUSED at once, and is not retried', async () => {
      // A port that was just listening and is closed now: the connection is refused.
      const server = await startModelServer([]);
      await server.close();
      const url = vendor.name === 'openai' ? server.openaiBaseURL : server.anthropicBaseURL;
      const events = await run(vendor.provider(server, { retry: { maxAttempts: 5, sleep: async () => {} } }));
      assert.deepEqual(typesOf(events), ['error'], 'no retry before the error');
      const error = (events[0] as Extract<ModelEvent, { type: 'error' }>).error;
      assert.equal(error.retryable, false);
      assert.ok(error.message.includes(url), `names ${url}: ${error.message}`);
      assert.match(error.message, /ECONNREFUSED/);
      assert.doesNotMatch(error.message, /Connection error|fetch failed/);
    });
  });
}
