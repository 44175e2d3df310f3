// The one provider registry: every model vendor Keel offers, each defined once — its id (what
// keel.provider and --provider take), label, key variable, key placeholder, default model, where
// its own API lives, whether a server on this machine may run without a key, and the factory of
// its adapter. The CLI flags and --help, the settings model, key storage and key destination,
// the header picker and compose all read this file; a new vendor is a new entry here and its
// adapter (Azure and the local servers' presets — Ollama, LM Studio, llama.cpp, vLLM — are entries
// over the chat-completions adapter; Claude on Bedrock and Vertex, over the Anthropic one). package.json's keel.provider enum cannot import it: a unit
// test holds them equal.
import type { ModelProvider } from '../kernel/contracts/index.js';
import { createAnthropicProvider } from './anthropic.js';
import { capabilitiesFor, tableModels, type CapabilityOverrides } from './models.js';
import { createOpenAIProvider } from './openai.js';
import { AZURE_KEY_VARIABLE, createAzureProvider } from './azure.js';
import type { LocalServer } from './local-servers.js';
import type { MaxTokensParam } from './models.js';
import type { ReasoningSetting } from './reasoning.js';
import type { WireApi } from './responses.js';
import { BEDROCK_KEY_VARIABLE, createBedrockProvider } from './bedrock.js';
import { VERTEX_CREDENTIALS_VARIABLE, createVertexProvider } from './vertex.js';
import { BEDROCK_MODELS, VERTEX_MODELS } from './cloud-models.js';

/** What a host passes to a vendor's factory. */
interface VendorProviderOptions extends CapabilityOverrides {
  model: string;
  /** Absent: the adapter reads the vendor's key variable itself. */
  apiKey?: string;
  /** Absent: the vendor's own API. */
  baseURL?: string;
  /** keel.reasoning / --reasoning; absent: the model's default (Anthropic's thinking off). */
  reasoning?: ReasoningSetting;
  /** keel.maxTokensParameter / --max-tokens-param, for a model behind a base URL the table cannot know. */
  maxTokensParam?: MaxTokensParam;
  /** keel.wireApi / --wire-api: chat completions or the Responses API (OpenAI-speaking vendors); absent: the model table's. */
  wireApi?: WireApi;
  /** keel.region / --region: a cloud's region (Bedrock's AWS region, Vertex's location). */
  region?: string;
  /** keel.project / --project: Vertex's Google Cloud project. */
  project?: string;
}

export interface VendorSpec<Id extends string = string> {
  id: Id;
  /** How the user is told whose key or API it is ("Anthropic"). */
  label: string;
  /** The header picker's "Switch provider to …" text. */
  switchLabel: string;
  /** The environment variable the key is read from when none is stored. */
  keyEnvVar: string;
  /** The key input box's placeholder: how the vendor's keys start. */
  keyPlaceholder: string;
  /** The model used when none is set: the CLI's and the extension's default alike. */
  defaultModel: string;
  /** The vendor's own API: the only place its key goes without asking first. */
  officialOrigin: string;
  /** True when a base URL on this machine (a local OpenAI-compatible server) may run without a key. */
  localNeedsNoKey: boolean;
  /** The picker lists the model table's ids with this prefix, spelled as the vendor's API does, or these ids. */
  pickerModel: { prefix: string; spell(id: string): string } | { ids: readonly string[] };
  /** A local server's preset: the base URL used when keel.baseUrl is empty (the server's own default). */
  defaultBaseUrl?: string;
  /** The vendor has no one API of its own: keel.baseUrl must name the user's (Azure's resource). */
  needsBaseUrl?: true;
  /**
   * A cloud's own credentials authorise the requests (AWS's chain, Google's application default
   * credentials): `optional-key`, a stored key is used when there is one and none is no error
   * (Bedrock's API keys); `no-key`, Keel holds no key for it at all (Vertex).
   */
  cloudAuth?: 'optional-key' | 'no-key';
  /** Why the table has no price for some of its models (Vertex's depends on the region, not the id). */
  unpriced?: string;
  create(options: VendorProviderOptions): ModelProvider;
}

const ANTHROPIC = {
  id: 'anthropic',
  label: 'Anthropic',
  switchLabel: 'Anthropic',
  keyEnvVar: 'ANTHROPIC_API_KEY',
  keyPlaceholder: 'sk-ant-…',
  defaultModel: 'claude-sonnet-5-5',
  officialOrigin: 'https://api.anthropic.com',
  localNeedsNoKey: false,
  pickerModel: { prefix: 'claude-', spell: (id) => id },
  create: createAnthropicProvider,
} as const satisfies VendorSpec;

const OPENAI = {
  id: 'openai',
  label: 'OpenAI',
  switchLabel: 'OpenAI (or compatible)',
  keyEnvVar: 'OPENAI_API_KEY',
  keyPlaceholder: 'sk-…',
  defaultModel: 'gpt-4o',
  officialOrigin: 'https://api.openai.com',
  localNeedsNoKey: true,
  // The table writes `gpt-4-1`; the API spells it `gpt-4.1`.
  pickerModel: { prefix: 'gpt-', spell: (id) => id.replace(/^gpt-(\d)-(\d)/, 'gpt-$1.$2') },
  create: createOpenAIProvider,
} as const satisfies VendorSpec;

const AZURE = {
  id: 'azure',
  label: 'Azure OpenAI',
  switchLabel: 'Azure OpenAI',
  keyEnvVar: AZURE_KEY_VARIABLE,
  keyPlaceholder: 'the key from the resource’s Keys and Endpoint page',
  // The model is the deployment's name, which the user chose; most name it after the model.
  defaultModel: 'gpt-4o',
  officialOrigin: 'https://RESOURCE.openai.azure.com',
  localNeedsNoKey: false,
  pickerModel: OPENAI.pickerModel,
  needsBaseUrl: true,
  create: createAzureProvider,
} as const satisfies VendorSpec;

const BEDROCK = {
  id: 'bedrock',
  label: 'Amazon Bedrock',
  switchLabel: 'Claude on Amazon Bedrock',
  keyEnvVar: BEDROCK_KEY_VARIABLE,
  keyPlaceholder: 'a Bedrock API key (none needed with AWS credentials)',
  defaultModel: 'global.anthropic.claude-sonnet-4-5-20250929-v1:0',
  officialOrigin: 'https://bedrock-runtime.REGION.amazonaws.com',
  localNeedsNoKey: false,
  pickerModel: { ids: BEDROCK_MODELS },
  cloudAuth: 'optional-key',
  create: createBedrockProvider,
} as const satisfies VendorSpec;

const VERTEX = {
  id: 'vertex',
  label: 'Vertex AI',
  switchLabel: 'Claude on Google Vertex AI',
  keyEnvVar: VERTEX_CREDENTIALS_VARIABLE,
  keyPlaceholder: 'none: Google application default credentials',
  defaultModel: 'claude-sonnet-4-5@20250929',
  officialOrigin: 'https://aiplatform.googleapis.com',
  localNeedsNoKey: false,
  pickerModel: { ids: VERTEX_MODELS },
  cloudAuth: 'no-key',
  unpriced: 'a regional endpoint of Claude 4.5 and later costs more than the global one, and a Vertex id does not say which it runs on',
  create: createVertexProvider,
} as const satisfies VendorSpec;

/** A local server's preset: its default address, no key, and the window asked of the server. */
function localServer<Id extends string>(
  id: Id,
  label: string,
  baseUrl: string,
  keyEnvVar: string,
  defaultModel: string,
  server: LocalServer,
) {
  return {
    id,
    label,
    switchLabel: `${label} (on this machine)`,
    keyEnvVar,
    keyPlaceholder: 'none needed on this machine',
    defaultModel,
    officialOrigin: new URL(baseUrl).origin,
    localNeedsNoKey: true,
    // Local models are whatever the server has: the table lists none of them.
    pickerModel: { prefix: `${id}:`, spell: (m: string) => m },
    defaultBaseUrl: baseUrl,
    create: (o: VendorProviderOptions) =>
      createOpenAIProvider({ ...o, baseURL: o.baseURL ?? baseUrl, vendor: { name: id, label, keyEnvVar }, contextProbe: server }),
  } as const satisfies VendorSpec<Id>;
}

const OLLAMA = localServer('ollama', 'Ollama', 'http://127.0.0.1:11434/v1', 'OLLAMA_API_KEY', 'qwen2.5-coder', 'ollama');
const LM_STUDIO = localServer('lmstudio', 'LM Studio', 'http://127.0.0.1:1234/v1', 'LM_API_TOKEN', 'qwen2.5-coder-7b-instruct', 'lmstudio');
// llama.cpp's server runs the one model it was started with, whatever the request names.
const LLAMA_CPP = localServer('llamacpp', 'llama.cpp server', 'http://127.0.0.1:8080/v1', 'LLAMA_API_KEY', 'local', 'llamacpp');
const VLLM = localServer('vllm', 'vLLM', 'http://127.0.0.1:8000/v1', 'VLLM_API_KEY', 'Qwen/Qwen2.5-Coder-7B-Instruct', 'vllm');

/** Every vendor, in the order the settings and pickers list them; the first is the default. */
export const VENDORS = [ANTHROPIC, OPENAI, AZURE, OLLAMA, LM_STUDIO, LLAMA_CPP, VLLM, BEDROCK, VERTEX] as const;

export type VendorId = (typeof VENDORS)[number]['id'];

export const VENDOR_IDS: readonly VendorId[] = VENDORS.map((v) => v.id);

/** The vendor a task runs on when nothing names one. */
export const DEFAULT_VENDOR: VendorId = VENDORS[0].id;

/**
 * The CLI's built-in demo: a scripted provider that calls no model and needs no key. The CLI
 * offers it (--provider scripted) beside the vendors; the extension's settings do not. Its
 * factory is the CLI's (the script is the CLI's demo), so only its id is defined here.
 */
export const DEMO_PROVIDER = 'scripted';

/** What --provider takes: every vendor, then the demo. */
export const CLI_PROVIDER_IDS = [...VENDOR_IDS, DEMO_PROVIDER] as const;
export type CliProviderId = VendorId | typeof DEMO_PROVIDER;

export function vendorOf(id: VendorId): VendorSpec<VendorId> {
  return VENDORS.find((v) => v.id === id) as VendorSpec<VendorId>;
}

/** The vendor a setting or flag names, or undefined for anything else (a hostile or stale value). */
export function parseVendorId(value: unknown): VendorId | undefined {
  return VENDOR_IDS.find((id) => id === value);
}

/** The base URL a task of this vendor goes to: the one set, else a local preset's own. */
export function effectiveBaseUrl(id: VendorId, baseUrl: string | undefined): string | undefined {
  return baseUrl || vendorOf(id).defaultBaseUrl;
}

/** The models the header picker offers for a vendor, each once (family aliases left out). */
export function pickerModels(id: VendorId): { id: string; vision: boolean; contextWindow: number }[] {
  const { pickerModel } = vendorOf(id);
  if (!('ids' in pickerModel)) return tableModels(pickerModel);
  return pickerModel.ids.map((m) => {
    const { vision, contextWindow } = capabilitiesFor(m);
    return { id: m, vision, contextWindow };
  });
}
