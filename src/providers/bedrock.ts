// Claude on Amazon Bedrock: Anthropic's Bedrock SDK (AnthropicBedrock) makes the request — it
// moves the model into the URL (POST /model/ID/invoke-with-response-stream), signs it with AWS
// Signature V4 from the AWS SDK's default credential chain (AWS_ACCESS_KEY_ID and
// AWS_SECRET_ACCESS_KEY with AWS_SESSION_TOKEN, AWS_PROFILE and its SSO or role, a container's or
// an instance's role), and turns Bedrock's binary event stream back into Anthropic's server-sent
// events, which the Anthropic core (anthropic.ts) reads as it reads Anthropic's own. A Bedrock API
// key (AWS_BEARER_TOKEN_BEDROCK, or one stored with "Keel: Set API Key") is sent instead of a
// signature when there is one. The region is the user's to say: Keel never picks one.
import { AnthropicBedrock } from '@anthropic-ai/bedrock-sdk';
import { APIConnectionError } from '@anthropic-ai/sdk';
import type { ModelError, ModelProvider } from '../kernel/contracts/index.js';
import { createClaudeProvider, type AnthropicProviderOptions } from './anthropic.js';
import { isSendableKey, readEnv, unsendableKeyError } from './credentials.js';
import { StreamErrorEvent, classifyApiFailure, modelError, type VendorInfo } from './errors.js';

export const BEDROCK_KEY_VARIABLE = 'AWS_BEARER_TOKEN_BEDROCK';

export interface CloudProviderOptions extends AnthropicProviderOptions {
  /** keel.region / --region: Bedrock's AWS region, Vertex's location. */
  region?: string;
  /** keel.project / --project: Vertex's Google Cloud project. */
  project?: string;
}

export function createBedrockProvider(opts: CloudProviderOptions): ModelProvider {
  const region = opts.region?.trim() || readEnv('AWS_REGION') || readEnv('AWS_DEFAULT_REGION');
  const baseURL = opts.baseURL ?? (region ? `https://bedrock-runtime.${region}.amazonaws.com` : undefined);
  const vendor: VendorInfo = {
    label: opts.baseURL ? `Amazon Bedrock (${opts.baseURL})` : 'Amazon Bedrock',
    keyEnvVar: BEDROCK_KEY_VARIABLE,
  };
  const apiKey = opts.apiKey?.trim() || readEnv(BEDROCK_KEY_VARIABLE);
  return createClaudeProvider(opts, {
    name: 'bedrock',
    vendor,
    secret: apiKey,
    client: () => {
      if (!region)
        return modelError(
          'bad_request',
          'Amazon Bedrock needs an AWS region: set keel.region (--region) or AWS_REGION; nothing was sent.',
          false,
        );
      if (apiKey && !isSendableKey(apiKey)) return unsendableKeyError(vendor);
      // `null`, not undefined: the SDK would read the key variable itself, and Keel already has.
      return new AnthropicBedrock({ awsRegion: region, baseURL, apiKey: apiKey ?? null, maxRetries: 0, timeout: opts.timeoutMs });
    },
    classify: (e) => classifyBedrockError(e, vendor),
  });
}

/**
 * Bedrock's exceptions inside a stream (the SDK hands them on as `error` events typed by the
 * exception), read as the Anthropic error types they mean.
 */
const STREAM_EXCEPTIONS: Record<string, string> = {
  throttlingException: 'rate_limit_error',
  serviceUnavailableException: 'overloaded_error',
  validationException: 'invalid_request_error',
  accessDeniedException: 'permission_error',
  resourceNotFoundException: 'not_found_error',
};

function classifyBedrockError(e: unknown, vendor: VendorInfo): ModelError | undefined {
  if (e instanceof StreamErrorEvent && e.failure.type && e.failure.type in STREAM_EXCEPTIONS)
    return classifyApiFailure({ ...e.failure, type: STREAM_EXCEPTIONS[e.failure.type] }, vendor);
  // The SDK reports credentials its chain could not find as a connection error; they are not one.
  if (!(e instanceof APIConnectionError) || !/resolve AWS credentials/i.test(e.message)) return undefined;
  const why = (e.cause as { message?: string } | undefined)?.message;
  return modelError(
    'auth',
    'No AWS credentials were found for Amazon Bedrock. Set AWS_PROFILE to a profile of ~/.aws/config (after `aws configure` or ' +
      '`aws sso login`), or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (with AWS_SESSION_TOKEN for temporary ones), or a Bedrock ' +
      `API key in ${BEDROCK_KEY_VARIABLE}; nothing was sent.${why ? ` (The AWS SDK: ${why})` : ''}`,
    false,
  );
}
