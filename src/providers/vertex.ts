// Claude on Google Vertex AI: Anthropic's Vertex SDK (AnthropicVertex) makes the request — it
// moves the model into the URL (POST /projects/P/locations/L/publishers/anthropic/models/M
// :streamRawPredict), and authorises it with Google's application default credentials (the
// file GOOGLE_APPLICATION_CREDENTIALS names, else gcloud's `application-default login`, else the
// metadata server of a Google Cloud machine) through google-auth-library. The stream is
// Anthropic's server-sent events, read by the Anthropic core (anthropic.ts). The region and the
// project are the user's to say (the project may also come from the credentials).
import { AnthropicVertex, type ClientOptions as VertexClientOptions } from '@anthropic-ai/vertex-sdk';
import { APIConnectionError } from '@anthropic-ai/sdk';
import { GoogleAuth } from 'google-auth-library';
import type { ModelError, ModelProvider } from '../kernel/contracts/index.js';
import { createClaudeProvider } from './anthropic.js';
import type { CloudProviderOptions } from './bedrock.js';
import { readEnv } from './credentials.js';
import { modelError, type VendorInfo } from './errors.js';

/** Where the credentials come from, as the user is told to set them (no Keel-stored key). */
export const VERTEX_CREDENTIALS_VARIABLE = 'GOOGLE_APPLICATION_CREDENTIALS';

/** The scope Vertex AI's API takes (the SDK's own default). */
const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';

export interface VertexProviderOptions extends CloudProviderOptions {
  /** A google-auth-library client to authorise with instead of application default credentials. */
  authClient?: VertexClientOptions['authClient'];
}

export function createVertexProvider(opts: VertexProviderOptions): ModelProvider {
  const region = opts.region?.trim() || readEnv('CLOUD_ML_REGION');
  const projectId = opts.project?.trim() || readEnv('ANTHROPIC_VERTEX_PROJECT_ID') || readEnv('GOOGLE_CLOUD_PROJECT') || null;
  const vendor: VendorInfo = { label: opts.baseURL ? `Vertex AI (${opts.baseURL})` : 'Vertex AI', keyEnvVar: VERTEX_CREDENTIALS_VARIABLE };
  return createClaudeProvider(opts, {
    name: 'vertex',
    vendor,
    client: () => {
      if (!region)
        return modelError(
          'bad_request',
          'Vertex AI needs a region: set keel.region (--region) or CLOUD_ML_REGION (global, us-east5, europe-west1…); nothing was sent.',
          false,
        );
      return new AnthropicVertex({
        region,
        projectId,
        ...(opts.baseURL ? { baseURL: opts.baseURL } : {}),
        // The project given is the project: without it google-auth-library would look for one (gcloud's
        // config, a Cloud Resource Manager request) before every first request.
        ...(opts.authClient
          ? { authClient: opts.authClient }
          : { googleAuth: new GoogleAuth({ scopes: CLOUD_PLATFORM_SCOPE, ...(projectId ? { projectId } : {}) }) }),
        maxRetries: 0,
        timeout: opts.timeoutMs,
      });
    },
    classify: classifyVertexError,
  });
}

/** Missing credentials or project surface as a connection error or a bare Error; they are the user's to fix. */
function classifyVertexError(e: unknown): ModelError | undefined {
  const message = (e as { message?: unknown } | undefined)?.message;
  if (typeof message !== 'string') return undefined;
  if (/No projectId was given/.test(message))
    return modelError(
      'bad_request',
      'Vertex AI needs the Google Cloud project: set keel.project (--project) or ANTHROPIC_VERTEX_PROJECT_ID; nothing was sent.',
      false,
    );
  if (!(e instanceof APIConnectionError) || !/Google OAuth credentials/.test(message)) return undefined;
  const why = (e.cause as { message?: string } | undefined)?.message?.split('\n')[0];
  return modelError(
    'auth',
    'No Google credentials were found for Vertex AI. Run `gcloud auth application-default login`, or set ' +
      `${VERTEX_CREDENTIALS_VARIABLE} to a credentials file (a service account's key, a workload identity configuration); nothing was sent.` +
      (why ? ` (google-auth-library: ${why})` : ''),
    false,
  );
}
