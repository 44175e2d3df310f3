// The model a custom agent runs on: its `model` asked of the task's provider (withModel), which
// answers with a provider for it or keeps the task's model and says why. Never another vendor:
// the provider decides, since its key and endpoint are its vendor's. Used for the task's agent
// (agent_set) and for a `delegate {agent}` child alike.
import type { AgentProfile } from './contracts/agents.js';
import type { ModelKeptReason, ModelProvider } from './contracts/model.js';
import { visibleText } from './visible-text.js';

export interface AgentModel {
  provider: ModelProvider;
  /** Set when the agent named a model that is not running (logged on run_started). */
  kept?: { requested: string; reason: ModelKeptReason };
}

export function agentModel(base: ModelProvider, agent: AgentProfile | undefined): AgentModel {
  const requested = agent?.model;
  if (requested === undefined) return { provider: base };
  const choice = base.withModel ? base.withModel(requested) : { type: 'kept' as const, reason: 'fixed' as const };
  if (choice.type === 'switched') return { provider: choice.provider };
  if (choice.type === 'same') return { provider: base };
  return { provider: base, kept: { requested, reason: choice.reason } };
}

/** One provider per model for a task's runs (a provider keeps its SDK client; a rebuilt one would not). */
export class AgentModels {
  private readonly byModel = new Map<string, AgentModel>();

  constructor(private readonly base: ModelProvider) {}

  for(agent: AgentProfile | undefined): AgentModel {
    const key = agent?.model;
    if (key === undefined) return { provider: this.base };
    let found = this.byModel.get(key);
    if (!found) this.byModel.set(key, (found = agentModel(this.base, agent)));
    return found;
  }
}

/** What run_started logs for a provider: its name and model, and a kept agent model if any. */
export function runStartedFields(m: AgentModel) {
  return { provider: m.provider.name, model: m.provider.model, ...(m.kept ? { modelKept: m.kept } : {}) };
}

const KEPT_WHY: Record<ModelKeptReason, string> = {
  unknown: 'is not a model Keel knows',
  other_vendor: 'is another vendor’s model (this task’s key and endpoint are its own vendor’s)',
  fixed: 'cannot run here (this provider serves one model)',
};

/** The line both hosts show when an agent's model was not used: which model ran instead, and why. */
export function modelKeptText(kept: { requested: string; reason: ModelKeptReason }, running: string): string {
  return `The agent's model "${visibleText(kept.requested)}" ${KEPT_WHY[kept.reason]}, so the task's model ${running} runs.`;
}
