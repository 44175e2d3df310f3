// Issue 35 item 7: Claude on Bedrock and Vertex through Anthropic's own SDKs, against local
// stand-ins on 127.0.0.1 speaking each cloud's wire — Bedrock's event-stream framing, signed
// with AWS Signature V4; Vertex's streamRawPredict with a Google bearer token — in every write
// mode, each turn the same as on Anthropic's own API.
import assert from 'node:assert/strict';
import { createBedrockProvider } from '../../../../src/providers/bedrock.js';
import { createVertexProvider } from '../../../../src/providers/vertex.js';
import { startModelServer, type ModelServer } from '../../../support/model-server.js';
import { AWS_TEST_CREDENTIALS, GOOGLE_TEST_AUTH, withEnv } from '../../../support/cloud-auth.js';
import { FAST_RETRY } from '../vendors.js';
import { assertOutcome, collect, replyFor, WRITE_MODES } from './cases.js';
import { BEDROCK_CASES, bedrockReply, VERTEX_CASES } from './cloud-cases.js';

describe('provider conformance: Claude on Bedrock and Vertex, in every write mode', function () {
  this.timeout(20_000);
  let server: ModelServer | undefined;
  let restore: (() => void) | undefined;
  beforeEach(() => {
    // The SDK's default chain reads these first; the bearer-token variable must not stand in.
    restore = withEnv({
      AWS_ACCESS_KEY_ID: AWS_TEST_CREDENTIALS.awsAccessKey,
      AWS_SECRET_ACCESS_KEY: AWS_TEST_CREDENTIALS.awsSecretKey,
      AWS_SESSION_TOKEN: AWS_TEST_CREDENTIALS.awsSessionToken,
      AWS_BEARER_TOKEN_BEDROCK: undefined,
      AWS_EC2_METADATA_DISABLED: 'true',
    });
  });
  afterEach(async () => {
    restore?.();
    await server?.close();
  });

  for (const c of BEDROCK_CASES) {
    for (const mode of WRITE_MODES) {
      it(`${c.name} (${mode})`, async () => {
        server = await startModelServer(() => bedrockReply(c, mode));
        const provider = createBedrockProvider({ model: c.model, region: 'us-west-2', baseURL: server.url, retry: FAST_RETRY });
        const events = await collect(provider);
        assertOutcome(events, c.expect, server.requests.length);
        const [request] = server.requests;
        assert.equal(request!.api, 'bedrock', request!.path);
        assert.match(request!.path, /^\/model\/us\.anthropic\.claude-haiku-4-5-20251001-v1(:|%3A)0\/invoke-with-response-stream$/);
        // Signature V4 from the environment's credentials, scoped to the region and Bedrock.
        assert.match(
          String(request!.headers.authorization),
          /^AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE\/\d{8}\/us-west-2\/bedrock\/aws4_request, SignedHeaders=[a-z0-9;-]+, Signature=[0-9a-f]{64}$/,
        );
        assert.equal(request!.headers['x-amz-security-token'], AWS_TEST_CREDENTIALS.awsSessionToken);
        assert.equal(request!.body.model, undefined, 'the model is in the path, not the body');
        assert.equal(typeof request!.body.anthropic_version, 'string', 'the API version moves into the body');
      });
    }
  }

  for (const c of VERTEX_CASES) {
    for (const mode of WRITE_MODES) {
      it(`${c.name} (${mode})`, async () => {
        server = await startModelServer(() => replyFor(c, mode));
        const provider = createVertexProvider({
          model: c.model,
          region: 'us-east5',
          project: 'keel-test-project',
          baseURL: server.vertexBaseURL,
          authClient: GOOGLE_TEST_AUTH,
          retry: FAST_RETRY,
        });
        const events = await collect(provider);
        assertOutcome(events, c.expect, server.requests.length);
        const [request] = server.requests;
        assert.equal(
          request!.path,
          '/v1/projects/keel-test-project/locations/us-east5/publishers/anthropic/models/claude-haiku-4-5@20251001:streamRawPredict',
        );
        assert.equal(request!.headers.authorization, 'Bearer ya29.test-access-token');
        assert.equal(request!.body.model, undefined, 'the model is in the path, not the body');
        assert.equal(typeof request!.body.anthropic_version, 'string', 'the API version moves into the body');
      });
    }
  }
});
