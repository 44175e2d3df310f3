// What the header's model button offers, in order: typing another model id and switching the
// provider first — a short window (1366×768) must not hide them below a long list — then the
// provider's models, each once (pickerModels leaves out family aliases). No vscode: unit-tested.
import { pickerModels, VENDOR_IDS, type VendorId, vendorOf } from '../../providers/index.js';

type Provider = VendorId;

export type ModelChoice =
  | { type: 'other' }
  | { type: 'switch'; to: Provider }
  | { type: 'model'; id: string; current: boolean; vision: boolean; contextWindow: number };

export function modelChoices(s: { provider: Provider; model: string }): ModelChoice[] {
  const current = s.model || vendorOf(s.provider).defaultModel;
  return [
    { type: 'other' },
    // Every other vendor, in the registry's order.
    ...VENDOR_IDS.filter((to) => to !== s.provider).map((to): ModelChoice => ({ type: 'switch', to })),
    ...pickerModels(s.provider).map((m): ModelChoice => ({ type: 'model', ...m, current: m.id === current })),
  ];
}
