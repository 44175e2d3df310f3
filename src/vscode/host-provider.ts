// The model provider a task runs on. Built from the settings when the task is created, it looks
// the API key up on every turn (so setting a key mid-task works without a new task) and shows
// the presenter each request, for an exact context meter. No vscode import.
import type { ModelCapabilities, ModelEvent, ModelProvider, ModelRequest } from '../kernel/contracts/index.js';
import { createAnthropicProvider } from '../providers/anthropic.js';
import { capabilitiesFor } from '../providers/models.js';
import { createOpenAIProvider } from '../providers/openai.js';
import { DEFAULT_MODELS } from '../providers/index.js';
import type { KeyLookup } from './api-key.js';
import type { KeelSettings } from './settings.js';

export const DEFAULT_MODEL: Record<KeelSettings['provider'], string> = DEFAULT_MODELS;

export interface HostProviderOptions {
  settings: KeelSettings;
  lookupKey(): Promise<KeyLookup>;
  onRequest?(request: ModelRequest): void;
  /** Builds the vendor provider; the real SDK adapters unless a test says otherwise. */
  create?(settings: KeelSettings, apiKey: string | undefined): ModelProvider;
}

export class HostProvider implements ModelProvider {
  readonly name: string;
  readonly model: string;
  readonly capabilities: ModelCapabilities;
  private inner: { key: string | undefined; provider: ModelProvider } | undefined;

  constructor(private readonly options: HostProviderOptions) {
    this.name = options.settings.provider;
    this.model = options.settings.model || DEFAULT_MODEL[options.settings.provider];
    this.capabilities = capabilitiesFor(this.model, windowOverride(options.settings));
  }

  async *stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelEvent> {
    this.options.onRequest?.(request);
    const key = await this.options.lookupKey();
    if (key.kind === 'missing') {
      yield { type: 'error', error: { kind: 'auth', message: key.message, retryable: false } };
      return;
    }
    yield* this.providerFor(key.kind === 'found' ? key.key : undefined).stream(request, signal);
  }

  private providerFor(apiKey: string | undefined): ModelProvider {
    if (this.inner && this.inner.key === apiKey) return this.inner.provider;
    const settings = { ...this.options.settings, model: this.model };
    const provider = (this.options.create ?? createVendorProvider)(settings, apiKey);
    this.inner = { key: apiKey, provider };
    return provider;
  }
}

/** The window the user set (a local model's, which Keel cannot know), if any. */
function windowOverride(settings: KeelSettings): { contextWindow?: number } {
  return settings.contextWindow > 0 ? { contextWindow: settings.contextWindow } : {};
}

export function createVendorProvider(settings: KeelSettings, apiKey: string | undefined): ModelProvider {
  const common = {
    model: settings.model || DEFAULT_MODEL[settings.provider],
    ...windowOverride(settings),
    ...(apiKey ? { apiKey } : {}),
    ...(settings.baseUrl ? { baseURL: settings.baseUrl } : {}),
  };
  return settings.provider === 'openai' ? createOpenAIProvider(common) : createAnthropicProvider(common);
}
