// API keys in VS Code's SecretStorage, one per provider: set with "Keel: Set API Key" (a
// password input box), never written to settings.json or to any log.
import * as vscode from 'vscode';
import { ENV_KEY_NAME, PROVIDER_LABEL, lookupApiKey, secretKeyName, type KeyLookup, type ProviderName } from './api-key.js';
import type { KeelSettings } from './settings.js';

export class SecretKeys {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  /** SecretStorage, then the environment; a local OpenAI-compatible server needs none. */
  lookup(settings: Pick<KeelSettings, 'provider' | 'baseUrl'>): Promise<KeyLookup> {
    return lookupApiKey({
      provider: settings.provider,
      baseUrl: settings.baseUrl,
      readSecret: (name) => this.secrets.get(name),
      env: process.env,
    });
  }

  /** Every key in secret storage: child processes must not see any of them. */
  async held(): Promise<string[]> {
    const keys = await Promise.all((['anthropic', 'openai'] as const).map((p) => this.secrets.get(secretKeyName(p))));
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
    const key = await vscode.window.showInputBox({
      title: `Keel: ${PROVIDER_LABEL[provider]} API Key`,
      prompt: `Paste your ${PROVIDER_LABEL[provider]} API key. It is kept in VS Code's secret storage. Leave empty and press Enter to remove a stored key (${ENV_KEY_NAME[provider]} is then used if set).`,
      password: true,
      ignoreFocusOut: true,
      placeHolder: provider === 'anthropic' ? 'sk-ant-…' : 'sk-…',
      validateInput: (v) => (/\s/.test(v.trim()) ? 'An API key has no spaces in it.' : undefined),
    });
    if (key === undefined) return false;
    if (key.trim() === '') {
      await this.secrets.delete(secretKeyName(provider));
      void vscode.window.showInformationMessage(`Keel: the stored ${PROVIDER_LABEL[provider]} API key was removed.`);
      return false;
    }
    await this.secrets.store(secretKeyName(provider), key.trim());
    void vscode.window.showInformationMessage(`Keel: ${PROVIDER_LABEL[provider]} API key saved.`);
    return true;
  }

  private async pickProvider(defaultProvider: ProviderName): Promise<ProviderName | undefined> {
    const items: (vscode.QuickPickItem & { provider: ProviderName })[] = (['anthropic', 'openai'] as const).map((p) => ({
      provider: p,
      label: PROVIDER_LABEL[p],
      description: p === defaultProvider ? 'used by your settings (keel.provider)' : undefined,
    }));
    items.sort((a, b) => (a.provider === defaultProvider ? -1 : b.provider === defaultProvider ? 1 : 0));
    const picked = await vscode.window.showQuickPick(items, { title: 'Keel: Set API Key for…', ignoreFocusOut: true });
    return picked?.provider;
  }
}
