// Where an API key is about to be sent, and whether the user has agreed to it. The vendor's own
// API needs no question; any other host (a proxy, a local server, whatever keel.baseUrl names)
// is asked about once, and a yes is remembered per provider and origin. No vscode import: the
// host passes the question (a modal) and the store (global state), so this is unit-tested.
import { vendorOf } from '../../providers/index.js';
import { checkBaseUrl } from '../../providers/base-url.js';
import type { ProviderName } from './api-key.js';

export interface KeyDestination {
  provider: ProviderName;
  /** `scheme://host[:port]`, as the URL parser normalises it (lower case, punycode). */
  origin: string;
  official: boolean;
}

export type DestinationResult = { ok: true; destination: KeyDestination } | { ok: false; message: string };

export function keyDestination(provider: ProviderName, baseUrl: string): DestinationResult {
  const official = vendorOf(provider).officialOrigin;
  if (!baseUrl) return { ok: true, destination: { provider, origin: official, official: true } };
  const checked = checkBaseUrl(baseUrl, 'keel.baseUrl');
  if (!checked.ok) return { ok: false, message: `${checked.message} Fix it in your user settings, or clear it.` };
  const { origin } = checked.url;
  return { ok: true, destination: { provider, origin, official: origin === official } };
}

/** The modal's text: the whole origin, and whose key it is. */
export function keyQuestion(d: KeyDestination): { message: string; detail: string } {
  const { label, officialOrigin } = vendorOf(d.provider);
  return {
    message: `Send your ${label} API key to ${d.origin}?`,
    detail:
      `keel.baseUrl points Keel at ${d.origin}, which is not ${label}'s own API (${officialOrigin}). ` +
      'Whoever runs that server receives your key with every request. Keel asks once per host and remembers a yes.',
  };
}

export function refusedKeyMessage(d: KeyDestination): string {
  const { label } = vendorOf(d.provider);
  return (
    `Keel did not send your ${label} API key to ${d.origin}: you declined, and nothing was sent. ` +
    `Send again to be asked again, or clear keel.baseUrl in your user settings to use ${label}'s own API.`
  );
}

export interface KeyHostStore {
  get(): readonly string[];
  set(entries: string[]): PromiseLike<void>;
}

export class KeyHostApprovals {
  private readonly asking = new Map<string, Promise<boolean>>();

  constructor(
    private readonly store: KeyHostStore,
    /** Asks the user (a modal); true when they agree. */
    private readonly ask: (d: KeyDestination) => PromiseLike<boolean>,
  ) {}

  /** True when the key may go to this (unofficial) host: a remembered yes, or a yes now. */
  allowed(d: KeyDestination): Promise<boolean> {
    if (this.remembered(d)) return Promise.resolve(true);
    const entry = entryOf(d);
    // Two tasks starting at once get one question.
    let pending = this.asking.get(entry);
    if (!pending) {
      pending = this.askAndRemember(d).finally(() => this.asking.delete(entry));
      this.asking.set(entry, pending);
    }
    return pending;
  }

  remembered(d: KeyDestination): boolean {
    return this.store.get().includes(entryOf(d));
  }

  private async askAndRemember(d: KeyDestination): Promise<boolean> {
    const yes = await this.ask(d);
    if (yes && !this.remembered(d)) await this.store.set([...this.store.get(), entryOf(d)]);
    return yes;
  }
}

/** What global state holds per approval: the provider (whose key) and the origin. */
function entryOf(d: Pick<KeyDestination, 'provider' | 'origin'>): string {
  return `${d.provider} ${d.origin}`;
}
