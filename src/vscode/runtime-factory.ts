// Builds the kernel Runtime of a task from the settings of the moment (settings changes apply
// to new tasks and to tasks reopened later), the tools allowed by workspace trust, the policy
// and the standing approvals. No vscode import: the host passes every piece in.
import {
  Registry,
  Runtime,
  type ApprovalPolicy,
  type GrantStore,
  type ModelProvider,
  type ModelRequest,
  type ToolDefinition,
  type VisibilityContext,
  type Workspace,
} from '../kernel/index.js';
import type { KeyLookup } from './api-key.js';
import { HostProvider } from './host-provider.js';
import type { KeyDestination } from './key-destination.js';
import { buildSystemPrompt } from './prompts.js';
import type { KeelSettings } from './settings.js';
import type { RuntimeInit } from './task-store.js';

export interface RuntimeFactoryDeps {
  settings(): KeelSettings;
  tools(): readonly ToolDefinition[];
  workspace: Workspace | undefined;
  policy(settings: KeelSettings): ApprovalPolicy | undefined;
  grants: GrantStore;
  trusted(): boolean;
  lookupKey(settings: KeelSettings): Promise<KeyLookup>;
  /** Asks (once per host) before a key goes anywhere but the vendor's own API. */
  allowKeyDestination(destination: KeyDestination): Promise<boolean>;
  /** The API keys the host holds, kept out of every error the runtime logs. */
  secrets(): readonly string[];
  onRequest(taskId: string, request: ModelRequest): void;
  platform: string;
  /** Tests replace the model with a scripted one. */
  providerOverride?(settings: KeelSettings): ModelProvider | undefined;
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
    const registry = new Registry();
    for (const tool of d.tools()) registry.addTool(tool);
    // Read on every run, so granting workspace trust enables the write/execute tools at once.
    const visibility: VisibilityContext = {
      get trusted() {
        return d.trusted();
      },
      hasDiagnostics: typeof d.workspace?.diagnostics === 'function',
    };
    const policy = d.policy(settings);
    return new Runtime({
      provider,
      registry,
      ...(d.workspace ? { workspace: d.workspace } : {}),
      ...(policy ? { policy } : {}),
      grantStore: d.grants,
      store: init.store,
      events: init.events,
      maxTurns: settings.maxTurns,
      secrets: () => d.secrets(),
      visibility,
      system: buildSystemPrompt({
        workspaceRoot: d.workspace?.root,
        platform: d.platform,
        trusted: d.trusted(),
        toolNames: registry.visibleTools(visibility).map((t) => t.name),
      }),
    });
  }

  contextWindow(taskId: string): number {
    return this.providers.get(taskId)?.capabilities.contextWindow ?? 0;
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
  };
}
