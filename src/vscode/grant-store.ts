// "Always in this workspace" approvals, kept in the extension's workspaceState so they hold
// across reloads for this workspace only (never in settings.json, never for other folders).
import type * as vscode from 'vscode';
import type { Grant, GrantStore } from '../kernel/contracts/index.js';

const KEY = 'keel.grants';

export class WorkspaceGrantStore implements GrantStore {
  constructor(private readonly memento: vscode.Memento) {}

  list(): Grant[] {
    const raw = this.memento.get<unknown>(KEY, []);
    return Array.isArray(raw) ? raw.filter(isGrant).map((g) => ({ ...g, scope: 'workspace' as const })) : [];
  }

  async add(grant: Grant): Promise<void> {
    const all = this.list();
    if (all.some((g) => g.tool === grant.tool && g.command === grant.command && g.origin === grant.origin)) return;
    all.push({ ...grant, scope: 'workspace' });
    await this.memento.update(KEY, all);
  }

  async clear(): Promise<void> {
    await this.memento.update(KEY, []);
  }
}

function isGrant(v: unknown): v is Grant {
  if (typeof v !== 'object' || v === null) return false;
  const g = v as Record<string, unknown>;
  const optionalText = (x: unknown) => x === undefined || typeof x === 'string';
  return typeof g.tool === 'string' && optionalText(g.command) && optionalText(g.origin);
}
