// Issue 35 item 7: what a user without a cloud's credentials, region or project is told — one
// clear error naming what to set, no stack trace, nothing sent — and that a Bedrock API key, when
// there is one, is sent instead of a signature. Every address is 127.0.0.1: the AWS SDK's
// instance metadata and Google's metadata server are switched off, and the home folder is empty.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ModelEvent } from '../../../src/kernel/index.js';
import { createBedrockProvider } from '../../../src/providers/bedrock.js';
import { createVertexProvider } from '../../../src/providers/vertex.js';
import { lookupApiKey } from '../../../src/host/keys/api-key.js';
import { conversation, startModelServer, type ModelServer } from '../../support/model-server.js';
import { scratchDir } from '../../support/scratch.js';
import { collect } from './conformance/cases.js';
import { GOOGLE_TEST_AUTH, withEnv } from '../../support/cloud-auth.js';
import { FAST_RETRY } from './vendors.js';

function lastError(events: ModelEvent[]) {
  const last = events.at(-1);
  assert.equal(last?.type, 'error', JSON.stringify(events));
  return (last as Extract<ModelEvent, { type: 'error' }>).error;
}

/** No credentials anywhere the SDKs look: no variables, an empty home, no metadata servers. */
function bareEnvironment(): Record<string, string | undefined> {
  const home = scratchDir('cloud-credentials');
  return {
    HOME: home,
    AWS_ACCESS_KEY_ID: undefined,
    AWS_SECRET_ACCESS_KEY: undefined,
    AWS_SESSION_TOKEN: undefined,
    AWS_PROFILE: undefined,
    AWS_BEARER_TOKEN_BEDROCK: undefined,
    AWS_REGION: undefined,
    AWS_DEFAULT_REGION: undefined,
    AWS_CONFIG_FILE: path.join(home, 'no-aws-config'),
    AWS_SHARED_CREDENTIALS_FILE: path.join(home, 'no-aws-credentials'),
    AWS_WEB_IDENTITY_TOKEN_FILE: undefined,
    AWS_CONTAINER_CREDENTIALS_RELATIVE_URI: undefined,
    AWS_CONTAINER_CREDENTIALS_FULL_URI: undefined,
    AWS_EC2_METADATA_DISABLED: 'true',
    GOOGLE_APPLICATION_CREDENTIALS: undefined,
    CLOUDSDK_CONFIG: path.join(home, 'gcloud'),
    METADATA_SERVER_DETECTION: 'none',
    CLOUD_ML_REGION: undefined,
    ANTHROPIC_VERTEX_PROJECT_ID: undefined,
    GOOGLE_CLOUD_PROJECT: undefined,
    GCLOUD_PROJECT: undefined,
  };
}

describe('Claude on Bedrock and Vertex: credentials, region and project', function () {
  this.timeout(20_000);
  let server: ModelServer | undefined;
  let restore: (() => void) | undefined;
  beforeEach(async () => {
    restore = withEnv(bareEnvironment());
    server = await startModelServer(conversation([{ text: ['Hi.'] }]));
  });
  afterEach(async () => {
    restore?.();
    await server?.close();
  });

  it('Bedrock without AWS credentials says what to set, sends nothing and is not retried', async () => {
    const provider = createBedrockProvider({
      model: 'anthropic.claude-haiku-4-5-20251001-v1:0',
      region: 'us-east-1',
      baseURL: server!.url,
      retry: FAST_RETRY,
    });
    const error = lastError(await collect(provider));
    assert.equal(error.kind, 'auth');
    assert.equal(error.retryable, false);
    for (const name of ['AWS_PROFILE', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_BEARER_TOKEN_BEDROCK'])
      assert.ok(error.message.includes(name), error.message);
    assert.doesNotMatch(error.message, /\n\s+at /, 'no stack trace');
    assert.equal(server!.requests.length, 0);
  });

  it('Bedrock without a region names keel.region and AWS_REGION', async () => {
    process.env.AWS_ACCESS_KEY_ID = 'AKIAIOSFODNN7EXAMPLE';
    process.env.AWS_SECRET_ACCESS_KEY = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
    const error = lastError(
      await collect(createBedrockProvider({ model: 'anthropic.claude-haiku-4-5-20251001-v1:0', baseURL: server!.url })),
    );
    assert.equal(error.retryable, false);
    assert.match(error.message, /keel\.region \(--region\) or AWS_REGION/);
    assert.equal(server!.requests.length, 0);
  });

  it('a Bedrock API key is sent as a bearer token instead of a signature', async () => {
    process.env.AWS_REGION = 'eu-west-1';
    const key = 'ABSKQmVkcm9ja0FQSUtleS1leGFtcGxlLWtleQ';
    const provider = createBedrockProvider({ model: 'eu.anthropic.claude-haiku-4-5-20251001-v1:0', apiKey: key, baseURL: server!.url });
    const events = await collect(provider);
    assert.deepEqual(events.at(-1), { type: 'final', stopReason: 'stop' });
    assert.equal(server!.requests[0]!.headers.authorization, `Bearer ${key}`);
  });

  it('Vertex without a region names keel.region and CLOUD_ML_REGION', async () => {
    const provider = createVertexProvider({
      model: 'claude-haiku-4-5@20251001',
      project: 'p',
      baseURL: server!.vertexBaseURL,
      authClient: GOOGLE_TEST_AUTH,
    });
    const error = lastError(await collect(provider));
    assert.equal(error.retryable, false);
    assert.match(error.message, /keel\.region \(--region\) or CLOUD_ML_REGION/);
    assert.equal(server!.requests.length, 0);
  });

  it('Vertex without Google credentials says how to get them, sends nothing and is not retried', async () => {
    fs.mkdirSync(process.env.CLOUDSDK_CONFIG!, { recursive: true });
    const provider = createVertexProvider({
      model: 'claude-haiku-4-5@20251001',
      region: 'global',
      project: 'p',
      baseURL: server!.vertexBaseURL,
      retry: FAST_RETRY,
    });
    const error = lastError(await collect(provider));
    assert.equal(error.kind, 'auth');
    assert.equal(error.retryable, false);
    assert.match(error.message, /gcloud auth application-default login/);
    assert.ok(error.message.includes('GOOGLE_APPLICATION_CREDENTIALS'), error.message);
    assert.doesNotMatch(error.message, /\n\s+at /, 'no stack trace');
    assert.equal(server!.requests.length, 0);
  });

  it('Vertex without a project (neither set nor in the credentials) names keel.project', async () => {
    const provider = createVertexProvider({
      model: 'claude-haiku-4-5@20251001',
      region: 'global',
      baseURL: server!.vertexBaseURL,
      authClient: GOOGLE_TEST_AUTH,
      retry: FAST_RETRY,
    });
    const error = lastError(await collect(provider));
    assert.equal(error.retryable, false);
    assert.match(error.message, /keel\.project \(--project\) or ANTHROPIC_VERTEX_PROJECT_ID/);
    assert.equal(server!.requests.length, 0);
  });

  it('the host looks up no key for Vertex, and a missing Bedrock key is no error (AWS credentials sign)', async () => {
    const lookup = (provider: 'bedrock' | 'vertex', env: Record<string, string>) =>
      lookupApiKey({ provider, baseUrl: undefined, readSecret: () => undefined, env });
    assert.deepEqual(await lookup('vertex', { GOOGLE_APPLICATION_CREDENTIALS: '/home/u/key.json' }), { kind: 'not_needed' });
    assert.deepEqual(await lookup('bedrock', {}), { kind: 'not_needed' });
    assert.deepEqual(await lookup('bedrock', { AWS_BEARER_TOKEN_BEDROCK: 'ABSK-key' }), { kind: 'found', key: 'ABSK-key', source: 'env' });
  });
});
