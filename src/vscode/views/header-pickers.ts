// The header's pickers, in the host: the model (the configured provider's models from the one
// model table, free text for an OpenAI-compatible server's model, or switching provider) and
// the auto-approve classes as toggles. Both write the user's settings (Global): keel.provider
// and keel.autoApprove are user-only, and a workspace never sets them (settings.ts, the guard).
import * as vscode from 'vscode';
import type { Risk } from '../../kernel/contracts/index.js';
import { vendorOf } from '../../providers/index.js';
import { capabilitiesFor } from '../../providers/models.js';
import { modelChoices } from '../../host/settings/model-choices.js';
import type { Hints } from '../../protocol/index.js';
import type { KeelSettings } from '../../host/settings/settings.js';

const RISK_TEXT: Record<Risk, string> = {
  read: 'read files inside the workspace',
  write: 'edit and create files without showing the diff first',
  execute: 'run commands and tests without asking',
  network: 'reach the network without asking',
};

/** What the header shows: provider, model and whether it reads images; the auto-approve classes. */
export function headerHints(s: KeelSettings): Pick<Hints, 'model' | 'autoApprove'> {
  const model = s.model || vendorOf(s.provider).defaultModel;
  return { model: { provider: s.provider, model, vision: capabilitiesFor(model).vision }, autoApprove: [...s.autoApprove] };
}

type ModelItem = vscode.QuickPickItem & { apply: () => Promise<void> };

export async function pickModel(s: KeelSettings): Promise<void> {
  const config = () => vscode.workspace.getConfiguration('keel');
  const current = s.model || vendorOf(s.provider).defaultModel;
  const choices = modelChoices(s);
  const items: ModelItem[] = [];
  for (const c of choices) {
    if (c.type === 'other')
      items.push({
        label: '$(edit) Other model id…',
        description: "e.g. a local OpenAI-compatible server's model",
        apply: () => askModelId(current),
      });
    else if (c.type === 'switch')
      items.push({
        label: `$(arrow-swap) Switch provider to ${vendorOf(c.to).switchLabel}`,
        apply: async () => {
          await config().update('provider', c.to, vscode.ConfigurationTarget.Global);
          await config().update('model', undefined, vscode.ConfigurationTarget.Global);
        },
      });
    else {
      // One separator before the first model, after the other-id and switch items.
      if (!items.some((i) => i.kind === vscode.QuickPickItemKind.Separator))
        items.push({ label: `${s.provider} models`, kind: vscode.QuickPickItemKind.Separator, apply: async () => undefined });
      items.push({
        label: c.id,
        description: [c.current ? 'current' : '', c.vision ? '' : 'text only', `${Math.round(c.contextWindow / 1000)}k context`]
          .filter(Boolean)
          .join(' · '),
        apply: async () => config().update('model', c.id, vscode.ConfigurationTarget.Global),
      });
    }
  }
  const picked = await vscode.window.showQuickPick(items, {
    title: `Model (${s.provider})`,
    placeHolder: `Now: ${current}`,
    matchOnDescription: true,
  });
  await picked?.apply();
}

async function askModelId(current: string): Promise<void> {
  const id = await vscode.window.showInputBox({
    title: 'Model id',
    prompt: 'The model name the server expects (for an OpenAI-compatible server, also set keel.baseUrl).',
    value: current,
    validateInput: (v) => (/^[\w.:/@+-]{1,200}$/.test(v.trim()) ? undefined : 'Letters, digits and . : / @ + - _ only'),
  });
  if (id?.trim()) await vscode.workspace.getConfiguration('keel').update('model', id.trim(), vscode.ConfigurationTarget.Global);
}

export async function pickAutoApprove(s: KeelSettings): Promise<void> {
  const risks: Risk[] = ['read', 'write', 'execute', 'network'];
  const items = risks.map((risk) => ({ label: risk, description: RISK_TEXT[risk], picked: s.autoApprove.includes(risk), risk }));
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Run without asking (your user settings; a workspace cannot change them)',
    canPickMany: true,
  });
  if (!picked) return;
  await vscode.workspace.getConfiguration('keel').update(
    'autoApprove',
    picked.map((p) => p.risk),
    vscode.ConfigurationTarget.Global,
  );
}
