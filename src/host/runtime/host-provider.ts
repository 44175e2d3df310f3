// The model provider a task runs on. Built from the settings when the task is created, it looks
// the API key up on every turn (so setting a key mid-task works without a new task), refuses a
// key no HTTP header can carry, asks before a key goes anywhere but the vendor's own API, and
// shows the presenter each request, for an exact context meter. No vscode import.
import type { ModelCapabilities, ModelError, ModelEvent, ModelProvider, ModelRequest, ModelSwitch } from '../../kernel/contracts/index.js';
import { createModelProvider, modelOf } from '../../compose/index.js';
import { switchModel } from '../../compose/provider.js';
import { capabilitiesFor } from '../../providers/models.js';
import { isSendableKey, unsendableKeyError } from '../../providers/credentials.js';
import { checkBaseUrl } from '../../providers/base-url.js';
import { vendorOf } from '../../providers/index.js';
import type { KeyLookup } from '../keys/api-key.js';
import { keyDestination, refusedKeyMessage, type KeyDestination } from '../keys/key-destination.js';
import type { KeelSettings } from '../settings/settings.js';

export interface HostProviderOptions {
  settings: KeelSettings;
  lookupKey(): Promise<KeyLookup>;
  /** May the key go to this host? Asked before every request that carries a key. */
  allowKeyDestination(destination: KeyDestination): Promise<boolean>;
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
    this.model = modelOf(options.settings);
    this.capabilities = capabilitiesFor(this.model, windowOverride(options.settings));
  }

  async *stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelEvent> {
    this.options.onRequest?.(request);
    // A base URL without its scheme is named as what it is, before any key is looked for.
    const { baseUrl } = this.options.settings;
    const checked = baseUrl ? checkBaseUrl(baseUrl, 'keel.baseUrl') : undefined;
    if (checked && !checked.ok) {
      yield { type: 'error', error: { kind: 'bad_request', message: checked.message, retryable: false } };
      return;
    }
    const key = await this.options.lookupKey();
    if (key.kind === 'missing') {
      yield { type: 'error', error: { kind: 'auth', message: key.message, retryable: false } };
      return;
    }
    if (key.kind === 'found') {
      const refusal = await this.refusal(key.key);
      if (refusal) {
        yield { type: 'error', error: refusal };
        return;
      }
    }
    yield* this.providerFor(key.kind === 'found' ? key.key : undefined).stream(request, signal);
  }

  /**
   * Before a run, a local server's preset asks the server its context window (the inner
   * provider does), when no key has to go anywhere to ask: the meter and the folding budget
   * then read the server's own window.
   */
  async prepare(signal: AbortSignal): Promise<void> {
    const key = await this.options.lookupKey();
    if (key.kind === 'missing') return;
    if (key.kind === 'found') {
      const where = keyDestination(this.options.settings.provider, this.options.settings.baseUrl);
      if (!where.ok || !where.destination.official) return;
    }
    const inner = this.providerFor(key.kind === 'found' ? key.key : undefined);
    if (!inner.prepare) return;
    await inner.prepare(signal);
    Object.assign(this.capabilities, inner.capabilities);
  }

  /** A custom agent's model: the same settings (vendor, endpoint, key checks) with that model. */
  withModel(requested: string): ModelSwitch {
    const { settings } = this.options;
    return switchModel(
      settings.provider,
      this.model,
      requested,
      (model) => new HostProvider({ ...this.options, settings: { ...settings, model, contextWindow: 0 } }),
    );
  }

  /** Why this key may not be sent where the settings point, or undefined when it may. */
  private async refusal(apiKey: string): Promise<ModelError | undefined> {
    const { provider, baseUrl } = this.options.settings;
    if (!isSendableKey(apiKey)) return unsendableKeyError(vendorOf(provider));
    const where = keyDestination(provider, baseUrl);
    if (!where.ok) return { kind: 'bad_request', message: where.message, retryable: false };
    if (where.destination.official || (await this.options.allowKeyDestination(where.destination))) return undefined;
    return { kind: 'bad_request', message: refusedKeyMessage(where.destination), retryable: false };
  }

  private providerFor(apiKey: string | undefined): ModelProvider {
    if (this.inner && this.inner.key === apiKey) return this.inner.provider;
    const settings = { ...this.options.settings, model: this.model };
    const provider = (this.options.create ?? createModelProvider)(settings, apiKey);
    this.inner = { key: apiKey, provider };
    return provider;
  }
}

/** The window the user set (a local model's, which Keel cannot know), if any. */
function windowOverride(settings: KeelSettings): { contextWindow?: number } {
  return settings.contextWindow > 0 ? { contextWindow: settings.contextWindow } : {};
}
