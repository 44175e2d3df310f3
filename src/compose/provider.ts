// Step 1 of composing a runtime: the model provider a host's settings name. The one place a
// vendor id becomes an adapter, for the CLI and the extension alike, through the provider
// registry (src/providers/registry.ts): a vendor added there appears in both.
import type { ModelProvider } from '../kernel/index.js';
import { type VendorId, vendorOf } from '../providers/index.js';

export interface ProviderChoice {
  provider: VendorId;
  /** Empty or undefined: the vendor's default model. */
  model?: string | undefined;
  /** Empty or undefined: the vendor's official endpoint. */
  baseUrl?: string | undefined;
  /** The model's context window in tokens; undefined or 0: the window Keel's model table knows. */
  contextWindow?: number | undefined;
}

/** The model a choice runs: the one named, else the vendor's default. */
export function modelOf(choice: ProviderChoice): string {
  return choice.model || vendorOf(choice.provider).defaultModel;
}

/** The vendor adapter; without `apiKey` the SDK reads its own environment variable. */
export function createModelProvider(choice: ProviderChoice, apiKey?: string): ModelProvider {
  return vendorOf(choice.provider).create({
    model: modelOf(choice),
    ...(apiKey ? { apiKey } : {}),
    ...(choice.baseUrl ? { baseURL: choice.baseUrl } : {}),
    ...(choice.contextWindow ? { contextWindow: choice.contextWindow } : {}),
  });
}
