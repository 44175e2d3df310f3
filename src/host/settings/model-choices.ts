// What the header's model button offers, in order: typing another model id and switching the
// provider first — a short window (1366×768) must not hide them below a long list — then the
// provider's models, each once (pickerModels leaves out family aliases). No vscode: unit-tested.
import { DEFAULT_MODELS } from '../../providers/index.js';
import { pickerModels } from '../../providers/models.js';

type Provider = 'anthropic' | 'openai';

export type ModelChoice =
  | { type: 'other' }
  | { type: 'switch'; to: Provider }
  | { type: 'model'; id: string; current: boolean; vision: boolean; contextWindow: number };

export function modelChoices(s: { provider: Provider; model: string }): ModelChoice[] {
  const current = s.model || DEFAULT_MODELS[s.provider];
  const to: Provider = s.provider === 'openai' ? 'anthropic' : 'openai';
  return [
    { type: 'other' },
    { type: 'switch', to },
    ...pickerModels(s.provider).map((m): ModelChoice => ({ type: 'model', ...m, current: m.id === current })),
  ];
}
