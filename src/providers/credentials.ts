// Which API key a provider sends, and what the user is told when there is none.
import type { ModelError } from '../kernel/contracts/index.js';
import { keyHint, modelError, type VendorInfo } from './errors.js';

/**
 * The key given, else the vendor's environment variable. A server at a custom base URL
 * (Ollama, LM Studio, a proxy) often needs no key, but the SDKs insist on one: it gets a
 * placeholder. Undefined means there is no way to authenticate.
 */
export function resolveApiKey(given: string | undefined, vendor: VendorInfo, baseURL: string | undefined): string | undefined {
  return given?.trim() || readEnv(vendor.keyEnvVar) || (baseURL ? 'not-needed' : undefined);
}

export function missingKeyError(vendor: VendorInfo): ModelError {
  return modelError('auth', `No ${vendor.label} API key is set. ${keyHint(vendor)}`, false);
}

function readEnv(name: string): string | undefined {
  // Providers import no node:* module: reach the environment through the global, if any.
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return env?.[name]?.trim() || undefined;
}
