// Step 1 of composing a runtime: the model provider a host's settings name. The one place a
// vendor id becomes an adapter, for the CLI and the extension alike, through the provider
// registry (src/providers/registry.ts): a vendor added there appears in both.
import type { ModelProvider, ModelSwitch } from '../kernel/index.js';
import { type MaxTokensParamChoice, type ReasoningSetting, type VendorId, vendorOf, type WireApiChoice } from '../providers/index.js';
import { resolveModelName } from '../providers/model-names.js';
import { checkBaseUrl } from '../providers/base-url.js';
import { capabilitiesFor } from '../providers/models.js';

export interface ProviderChoice {
  provider: VendorId;
  /** Empty or undefined: the vendor's default model. */
  model?: string | undefined;
  /** Empty or undefined: the vendor's official endpoint. */
  baseUrl?: string | undefined;
  /** The model's context window in tokens; undefined or 0: the window Keel's model table knows. */
  contextWindow?: number | undefined;
  /** keel.reasoning / --reasoning; undefined: the model's default. */
  reasoning?: ReasoningSetting | undefined;
  /** keel.maxTokensParameter / --max-tokens-param; undefined or auto: the table's and the server's rules. */
  maxTokensParameter?: MaxTokensParamChoice | undefined;
  /** keel.wireApi / --wire-api; undefined or auto: the model table's (the Responses API for the models served only there). */
  wireApi?: WireApiChoice | undefined;
  /** keel.region / --region: Bedrock's AWS region, Vertex's location; empty: the cloud's environment variable. */
  region?: string | undefined;
  /** keel.project / --project: Vertex's project; empty: the environment's or the credentials'. */
  project?: string | undefined;
}

/** The model a choice runs: the one named, else the vendor's default. */
export function modelOf(choice: ProviderChoice): string {
  return choice.model || vendorOf(choice.provider).defaultModel;
}

/**
 * The vendor adapter; without `apiKey` the SDK reads its own environment variable. Its
 * withModel gives the same vendor, key and endpoint with another model (a custom agent's).
 */
export function createModelProvider(choice: ProviderChoice, apiKey?: string): ModelProvider {
  const checked = choice.baseUrl ? checkBaseUrl(choice.baseUrl, 'keel.baseUrl') : undefined;
  if (checked && !checked.ok) return refusingProvider(choice, checked.message);
  const provider = vendorOf(choice.provider).create({
    model: modelOf(choice),
    ...(apiKey ? { apiKey } : {}),
    ...(choice.baseUrl ? { baseURL: choice.baseUrl } : {}),
    ...(choice.contextWindow ? { contextWindow: choice.contextWindow } : {}),
    ...(choice.reasoning && choice.reasoning !== 'default' ? { reasoning: choice.reasoning } : {}),
    ...(choice.maxTokensParameter && choice.maxTokensParameter !== 'auto' ? { maxTokensParam: choice.maxTokensParameter } : {}),
    ...(choice.wireApi && choice.wireApi !== 'auto' ? { wireApi: choice.wireApi } : {}),
    ...(choice.region ? { region: choice.region } : {}),
    ...(choice.project ? { project: choice.project } : {}),
  });
  return Object.assign(provider, {
    // A window given for the task's model says nothing about another's: the table's is used.
    withModel: (requested: string) =>
      switchModel(choice.provider, provider.model, requested, (model) =>
        createModelProvider({ ...choice, model, contextWindow: undefined }, apiKey),
      ),
  });
}

/** A provider whose every turn is the error that keeps it from starting (a base URL without its scheme). */
function refusingProvider(choice: ProviderChoice, message: string): ModelProvider {
  const model = modelOf(choice);
  return {
    name: choice.provider,
    model,
    capabilities: capabilitiesFor(model, choice.contextWindow ? { contextWindow: choice.contextWindow } : {}),
    async *stream() {
      yield { type: 'error', error: { kind: 'bad_request', message, retryable: false } };
    },
  };
}

/**
 * What an agent's `model` (as written) gives on a task of `vendor` running `current`: a provider
 * made for the model it names, or the task's model kept — never another vendor's (its key and
 * endpoint are not this task's), never a name Keel cannot map.
 */
export function switchModel(vendor: VendorId, current: string, requested: string, make: (model: string) => ModelProvider): ModelSwitch {
  const name = resolveModelName(requested);
  if (name.type === 'inherit') return { type: 'same' };
  if (name.type === 'unknown') return { type: 'kept', reason: 'unknown' };
  if (name.vendor !== vendor) return { type: 'kept', reason: 'other_vendor' };
  if (name.id === current) return { type: 'same' };
  return { type: 'switched', provider: make(name.id) };
}
