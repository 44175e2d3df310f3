// API keys in VS Code's SecretStorage, one per provider: set with "Keel: Set API Key" (a
// password input box), never written to settings.json or to any log.
import * as vscode from 'vscode';
import { isSendableKey } from '../../providers/credentials.js';
import { VENDOR_IDS, VENDORS, vendorOf } from '../../providers/index.js';
import { lookupApiKey, secretKeyName, type KeyLookup, type ProviderName } from '../../host/keys/api-key.js';
import type { KeelSettings } from '../../host/settings/settings.js';

/** The vendors a key is kept for: Vertex has none (Google's credentials authorise it). */
const KEYED_VENDORS = VENDORS.filter((v) => !('cloudAuth' in v) || v.cloudAuth !== 'no-key');

export class SecretKeys {
  /** Every key looked up in this window: what redaction removes from errors and logs. */
  private readonly seen = new Set<string>();

  constructor(private readonly secrets: vscode.SecretStorage) {}

  /** SecretStorage, then the environment; a local OpenAI-compatible server needs none. */
  async lookup(settings: Pick<KeelSettings, 'provider' | 'baseUrl'>): Promise<KeyLookup> {
    const found = await lookupApiKey({
      provider: settings.provider,
      baseUrl: settings.baseUrl,
      readSecret: (name) => this.secrets.get(name),
      env: process.env,
    });
    if (found.kind === 'found') this.seen.add(found.key);
    return found;
  }

  /** The keys Keel holds or has held in this window, and those in the environment. */
  known(): string[] {
    const env = KEYED_VENDORS.map((v) => process.env[v.keyEnvVar]?.trim()).filter((v): v is string => !!v);
    return [...new Set([...this.seen, ...env])];
  }

  /** Every key in secret storage: child processes must not see any of them. */
  async held(): Promise<string[]> {
    const keys = await Promise.all(VENDOR_IDS.map((p) => this.secrets.get(secretKeyName(p))));
    return keys.filter((k): k is string => !!k);
  }

  onDidChange(listener: () => void): vscode.Disposable {
    return this.secrets.onDidChange((e) => {
      if (e.key.startsWith('keel.apiKey.')) listener();
    });
  }

  /** Asks for a key (for the configured provider unless told) and stores it. True when set. */
  async prompt(defaultProvider: ProviderName): Promise<boolean> {
    const provider = await this.pickProvider(defaultProvider);
    if (!provider) return false;
    const { label, keyEnvVar, keyPlaceholder } = vendorOf(provider);
    const key = await vscode.window.showInputBox({
      title: `Keel: ${label} API Key`,
      prompt: `Paste your ${label} API key. It is kept in VS Code's secret storage. Leave empty and press Enter to remove a stored key (${keyEnvVar} is then used if set).`,
      password: true,
      ignoreFocusOut: true,
      placeHolder: keyPlaceholder,
      // A key travels in an HTTP header: printable ASCII only (the HTTP client's error would quote it).
      validateInput: (v) =>
        v.trim() === '' || isSendableKey(v.trim()) ? undefined : 'An API key is printable ASCII, with no spaces in it.',
    });
    if (key === undefined) return false;
    if (key.trim() === '') {
      await this.secrets.delete(secretKeyName(provider));
      void vscode.window.showInformationMessage(`Keel: the stored ${label} API key was removed.`);
      return false;
    }
    await this.secrets.store(secretKeyName(provider), key.trim());
    this.seen.add(key.trim());
    void vscode.window.showInformationMessage(`Keel: ${label} API key saved.`);
    return true;
  }

  private async pickProvider(defaultProvider: ProviderName): Promise<ProviderName | undefined> {
    const items: (vscode.QuickPickItem & { provider: ProviderName })[] = KEYED_VENDORS.map(({ id: p }) => ({
      provider: p,
      label: vendorOf(p).label,
      description: p === defaultProvider ? 'used by your settings (keel.provider)' : undefined,
    }));
    items.sort((a, b) => (a.provider === defaultProvider ? -1 : b.provider === defaultProvider ? 1 : 0));
    const picked = await vscode.window.showQuickPick(items, { title: 'Keel: Set API Key for…', ignoreFocusOut: true });
    return picked?.provider;
  }
}
