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

/**
 * An API key travels in an HTTP header, which carries printable ASCII only. Anything else is
 * refused before a request is made: the HTTP client's own error would quote the key.
 */
export function isSendableKey(key: string): boolean {
  return /^[\x21-\x7e]+$/.test(key);
}

export function unsendableKeyError(vendor: VendorInfo): ModelError {
  return modelError(
    'auth',
    `The ${vendor.label} API key contains characters an HTTP header cannot carry (only printable ASCII, no spaces or line breaks); nothing was sent. Set the key again. ${keyHint(vendor)}`,
    false,
  );
}

export function missingKeyError(vendor: VendorInfo): ModelError {
  return modelError('auth', `No ${vendor.label} API key is set. ${keyHint(vendor)}`, false);
}

export function readEnv(name: string): string | undefined {
  // Providers import no node:* module: reach the environment through the global, if any.
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return env?.[name]?.trim() || undefined;
}
