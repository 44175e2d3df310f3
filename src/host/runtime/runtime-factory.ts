// Builds the kernel Runtime of a task from the settings of the moment (settings changes apply
// to new tasks and to tasks reopened later) through the shared composition (src/compose). What
// is the extension's own: the provider that looks the key up per turn and asks before it goes
// to another host, workspace trust, the standing approvals and the memory store in its storage. No vscode import.
import { composeRuntime, type ComposeInput } from '../../compose/index.js';
import { listAgents, listCommands } from '../../compose/runtime.js';
import type { LoadedCommand } from '../../compose/commands/load-commands.js';
import type { LoadedAgent } from '../../compose/agents/load-agents.js';
import type { McpHub } from '../../mcp/index.js';
import type { A2aAgentConfig } from '../../a2a/index.js';
import type { Checkpoints, GrantStore, MemoryStore, ModelProvider, ModelRequest, Runtime, Workspace } from '../../kernel/index.js';
import type { KeyLookup } from '../keys/api-key.js';
import { HostProvider } from './host-provider.js';
import type { KeyDestination } from '../keys/key-destination.js';
import { priceOf, type Price } from '../../providers/models.js';
import type { KeelSettings } from '../settings/settings.js';
import type { RuntimeInit } from '../tasks/task-store.js';

export interface RuntimeFactoryDeps {
  settings(): KeelSettings;
  /** Undefined without a folder: chat only. */
  workspace: Workspace | undefined;
  grants: GrantStore;
  trusted(): boolean;
  lookupKey(settings: KeelSettings): Promise<KeyLookup>;
  /** Asks (once per host) before a key goes anywhere but the vendor's own API. */
  allowKeyDestination(destination: KeyDestination): Promise<boolean>;
  /** The API keys the host holds, kept out of every error the runtime logs. */
  secrets(): readonly string[];
  onRequest(taskId: string, request: ModelRequest): void;
  /** Where a task's checkpoints are kept (the extension's storage); none without a folder. */
  checkpoints?(taskId: string): Checkpoints | undefined;
  /** The memory store the tools and the prompt index use; none: no memory tools. */
  memory?: MemoryStore | undefined;
  /** The MCP servers; the tools of those ready when a task's runtime is built are offered. */
  mcp?: McpHub | undefined;
  /** The remote A2A agents a new task is offered (a workspace's only once approved). */
  a2a?(): readonly A2aAgentConfig[];
  /** Tests replace the model with a scripted one. */
  providerOverride?(settings: KeelSettings): ModelProvider | undefined;
  /** The user's skills folder and where skipped skills are reported (workspace skills follow trust). */
  skills?: ComposeInput['skills'];
  /** The user's custom agents folder and where skipped agent files are reported (workspace agents follow trust). */
  customAgents?: ComposeInput['agents'];
  /** The user's slash commands folder and where skipped command files are reported. */
  commands?: ComposeInput['commands'];
  /** The previews of edit calls the diff editor showed (edit-plans.ts), handed to the calls when they run. */
  previews?: ComposeInput['previews'];
  /** The user's hooks folder, the gate for the workspace's, where problems go (each task gets its id added). */
  hooks?: Omit<NonNullable<ComposeInput['hooks']>, 'taskId'>;
}

export class RuntimeFactory {
  private readonly providers = new Map<string, ModelProvider>();

  constructor(private readonly deps: RuntimeFactoryDeps) {}

  create(init: RuntimeInit): Runtime {
    const d = this.deps;
    const settings = d.settings();
    const override = d.providerOverride?.(settings);
    const provider = override
      ? observed(override, (r) => d.onRequest(init.taskId, r))
      : new HostProvider({
          settings,
          lookupKey: () => d.lookupKey(settings),
          allowKeyDestination: (where) => d.allowKeyDestination(where),
          onRequest: (r) => d.onRequest(init.taskId, r),
        });
    this.providers.set(init.taskId, provider);
    const checkpoints = d.checkpoints?.(init.taskId);
    const agents = d.a2a?.() ?? [];
    return composeRuntime({
      provider,
      settings,
      workspace: d.workspace,
      trusted: () => d.trusted(),
      interactive: true,
      grantStore: d.grants,
      store: init.store,
      events: init.events,
      secrets: () => d.secrets(),
      ...(checkpoints ? { checkpoints } : {}),
      ...(d.skills ? { skills: d.skills } : {}),
      ...(d.customAgents ? { agents: d.customAgents } : {}),
      ...(d.commands ? { commands: d.commands } : {}),
      ...(d.memory ? { memory: { store: d.memory, taskId: init.taskId } } : {}),
      ...(d.mcp ? { mcp: d.mcp } : {}),
      ...(d.previews ? { previews: d.previews } : {}),
      ...(d.hooks ? { hooks: { ...d.hooks, taskId: init.taskId } } : {}),
      ...(agents.length ? { a2a: agents } : {}),
    });
  }

  /** The slash commands as a new task would read them (the composer lists them before any task exists). */
  commands(): Promise<readonly LoadedCommand[]> {
    const d = this.deps;
    return listCommands({ ...(d.commands ? { commands: d.commands } : {}), workspace: d.workspace, trusted: () => d.trusted() });
  }

  /** The custom agents as a new task would read them (the header's picker lists them before any task exists). */
  agents(): Promise<readonly LoadedAgent[]> {
    const d = this.deps;
    return listAgents({ ...(d.customAgents ? { agents: d.customAgents } : {}), workspace: d.workspace, trusted: () => d.trusted() });
  }

  /** A task's model as the meter shows it: its window (0 when unknown) and price. */
  model(taskId: string): { contextWindow: number; price: Price | undefined } {
    const provider = this.providers.get(taskId);
    return { contextWindow: provider?.capabilities.contextWindow ?? 0, price: provider ? priceOf(provider.model) : undefined };
  }

  forget(taskId: string): void {
    this.providers.delete(taskId);
  }
}

/** The same provider, telling the host each request it is sent. */
function observed(inner: ModelProvider, onRequest: (r: ModelRequest) => void): ModelProvider {
  return {
    name: inner.name,
    model: inner.model,
    capabilities: inner.capabilities,
    stream(request, signal) {
      onRequest(request);
      return inner.stream(request, signal);
    },
    ...(inner.withModel
      ? {
          withModel: (requested: string) => {
            const choice = inner.withModel!(requested);
            return choice.type === 'switched' ? { ...choice, provider: observed(choice.provider, onRequest) } : choice;
          },
        }
      : {}),
  };
}
