// Where Keel finds the API key for a provider: SecretStorage first, then the environment.
// Pure (no vscode import) so the lookup order is unit-tested; the host passes the readers in.
// Each vendor's label, key variable and whether a local server needs a key: the provider registry.
import { checkBaseUrl } from '../../providers/base-url.js';
import { effectiveBaseUrl, type VendorId, vendorOf } from '../../providers/index.js';

export type ProviderName = VendorId;

/** The SecretStorage key a provider's API key is kept under. */
export function secretKeyName(provider: ProviderName): string {
  return `keel.apiKey.${provider}`;
}

export type KeyLookup =
  | { kind: 'found'; key: string; source: 'secret' | 'env' }
  /** An OpenAI-compatible server on this machine: it may run without a key. */
  | { kind: 'not_needed' }
  | { kind: 'missing'; provider: ProviderName; message: string };

export interface KeyLookupInput {
  provider: ProviderName;
  baseUrl: string | undefined;
  readSecret(name: string): PromiseLike<string | undefined> | string | undefined;
  env: Readonly<Record<string, string | undefined>>;
}

/** True for a base URL on this machine (localhost, 127.0.0.0/8, ::1). */
export function isLocalBaseUrl(baseUrl: string | undefined): boolean {
  if (!baseUrl) return false;
  let host: string;
  try {
    host = new URL(baseUrl).hostname.toLowerCase();
  } catch {
    return false;
  }
  host = host.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * The key hints the view shows for these settings. A base URL Keel cannot send to (no scheme:
 * "localhost:11434/v1") is the problem to name — by the same check the provider makes before a
 * request — never "No API key is set", which it would read as since it is no local URL.
 */
export function keyHints(baseUrl: string | undefined, lookup: KeyLookup['kind']): { noApiKey: boolean; endpoint: string | undefined } {
  const checked = baseUrl ? checkBaseUrl(baseUrl, 'keel.baseUrl') : undefined;
  if (checked && !checked.ok) return { noApiKey: false, endpoint: checked.message };
  return { noApiKey: lookup === 'missing', endpoint: undefined };
}

export async function lookupApiKey(input: KeyLookupInput): Promise<KeyLookup> {
  const vendor = vendorOf(input.provider);
  // Vertex: Google's credentials authorise every request; Keel holds no key to look up or send.
  if (vendor.cloudAuth === 'no-key') return { kind: 'not_needed' };
  const secret = clean(await input.readSecret(secretKeyName(input.provider)));
  if (secret) return { kind: 'found', key: secret, source: 'secret' };
  const env = clean(input.env[vendor.keyEnvVar]);
  if (env) return { kind: 'found', key: env, source: 'env' };
  // Bedrock without an API key: the adapter signs with the AWS SDK's credential chain.
  if (vendor.cloudAuth === 'optional-key') return { kind: 'not_needed' };
  // A local server's preset needs no base URL set: its own default is on this machine.
  if (vendor.localNeedsNoKey && isLocalBaseUrl(effectiveBaseUrl(input.provider, input.baseUrl))) return { kind: 'not_needed' };
  return { kind: 'missing', provider: input.provider, message: missingKeyMessage(input.provider) };
}

export function missingKeyMessage(provider: ProviderName): string {
  const { label, keyEnvVar } = vendorOf(provider);
  return (
    `No ${label} API key is set. Set one with "Keel: Set API Key" ` +
    `(it is kept in VS Code's secret storage), or set ${keyEnvVar} in the environment.`
  );
}

/** A pasted key often carries spaces or a newline; an empty one counts as none. */
function clean(value: string | undefined): string | undefined {
  const v = value?.trim();
  return v ? v : undefined;
}
