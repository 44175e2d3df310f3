// Step 5 of the MCP client: every configured server, as the hosts see them. The hub starts the
// servers the host allows (a workspace server only once trusted and approved), keeps their
// state for the view, and gives each task its tools: calls go through the hub, which restarts
// a crashed server on the next call (at most MAX_RESTARTS_PER_TASK times a task), applies the
// per-call timeout, and reports each failure both to the model (a coded error) and to the user.
import type { ToolDefinition, ToolResult } from '../kernel/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { definitionKey, type McpServerConfig } from './config.js';
import { type ConnectionOptions, McpConnection, type McpServerState } from './connection.js';
import { resourceTool } from './resource-tool.js';
import { callFailure, callResult } from './results.js';
import { type McpRiskOverrides, type SkippedTool, serverToolDefinitions } from './tools.js';

export const MAX_RESTARTS_PER_TASK = 3;
const DEFAULT_CALL_TIMEOUT_MS = 60_000;

export interface McpHubOptions {
  /** The stdio environment: the host's scrubbed environment plus the configured variables. */
  env(configured: Readonly<Record<string, string>>): Record<string, string>;
  cwd?: string | undefined;
  /** Whether this server may start now (a workspace server: trusted folder and approved definition). */
  mayStart(config: McpServerConfig): boolean;
  riskOverrides(): McpRiskOverrides;
  /**
   * The CLI's rule: a tool runs at `read` only when its server marks it read-only and the
   * overrides trust it as `read`; every other tool always asks, whatever is auto-approved.
   */
  trustedReadsOnly?: boolean;
  /** Servers the user turned off. */
  disabled?: Iterable<string>;
  callTimeoutMs?: number;
  startTimeoutMs?: number;
  /** How a stdio server is started when not as defined (inside the OS sandbox). */
  launch?: ConnectionOptions['launch'];
}

export interface McpServerStatus {
  name: string;
  source: McpServerConfig['source'];
  file: string;
  /** The exact command line or URL. */
  line: string;
  state: McpServerState;
  error?: string | undefined;
  stderrTail: string;
  tools: { name: string; readOnlyHint: boolean }[];
  skipped: SkippedTool[];
}

/** A failure the user should hear about (the model gets its own coded error). */
export interface McpNotice {
  server: string;
  message: string;
}

export class McpHub {
  private connections: McpConnection[];
  private readonly connectionOptions: ConnectionOptions;
  private readonly disabled: Set<string>;
  private readonly changeListeners = new Set<() => void>();
  private readonly noticeListeners = new Set<(n: McpNotice) => void>();
  private readonly skippedCache = new WeakMap<Tool[], SkippedTool[]>();
  /** Tool lists whose left-out tools the user has been told about (once per listing, not per task). */
  private readonly announced = new WeakSet<Tool[]>();

  constructor(
    configs: readonly McpServerConfig[],
    private readonly options: McpHubOptions,
  ) {
    this.disabled = new Set(options.disabled ?? []);
    const connectionOptions = {
      env: options.env,
      cwd: options.cwd,
      onChange: () => this.changed(),
      ...(options.startTimeoutMs ? { startTimeoutMs: options.startTimeoutMs } : {}),
      ...(options.launch ? { launch: options.launch } : {}),
    };
    this.connectionOptions = connectionOptions;
    this.connections = configs.map((c) => new McpConnection(c, connectionOptions));
  }

  /**
   * The config files changed (a server added, edited or removed): a server whose definition is
   * the same keeps running; the others stop, and the new ones start if the host allows them.
   */
  async reconfigure(configs: readonly McpServerConfig[]): Promise<void> {
    const same = (c: McpConnection, next: McpServerConfig) =>
      definitionKey(c.config) === definitionKey(next) && c.config.file === next.file;
    const kept = this.connections.filter((c) => configs.some((next) => same(c, next)));
    const gone = this.connections.filter((c) => !kept.includes(c));
    this.connections = configs.map((next) => kept.find((c) => same(c, next)) ?? new McpConnection(next, this.connectionOptions));
    await Promise.all(gone.map((c) => c.stop()));
    this.changed();
    await this.startAll();
  }

  /** Starts every enabled server the host allows; the others show why they wait. */
  async startAll(): Promise<void> {
    await Promise.all(this.connections.map((c) => this.startIfAllowed(c)));
  }

  private async startIfAllowed(c: McpConnection): Promise<void> {
    if (this.disabled.has(c.name)) return c.stop('disabled');
    if (!this.options.mayStart(c.config)) return c.stop('awaiting_approval');
    if (c.state !== 'ready') await c.start();
  }

  /** Restarts one server (the view's Restart); a disabled or unapproved one stays as it is. */
  async restart(name: string): Promise<void> {
    const c = this.find(name);
    if (!c) return;
    await c.stop();
    await this.startIfAllowed(c);
  }

  async setEnabled(name: string, enabled: boolean): Promise<void> {
    const c = this.find(name);
    if (!c) return;
    if (enabled) this.disabled.delete(name);
    else this.disabled.add(name);
    if (enabled) await this.startIfAllowed(c);
    else await c.stop('disabled');
  }

  configs(): McpServerConfig[] {
    return this.connections.map((c) => c.config);
  }

  status(): McpServerStatus[] {
    return this.connections.map((c) => this.statusOf(c));
  }

  /** A tool left out is listed once, with its reason, not also among the tools the tasks get. */
  private statusOf(c: McpConnection): McpServerStatus {
    const skipped = this.skippedOf(c);
    const left = new Set(skipped.map((s) => s.tool));
    return {
      name: c.name,
      source: c.config.source,
      file: c.config.file,
      line: c.line,
      state: c.state,
      error: c.error,
      stderrTail: c.stderrTail,
      tools: c.tools.filter((t) => !left.has(t.name)).map((t) => ({ name: t.name, readOnlyHint: t.annotations?.readOnlyHint === true })),
      skipped,
    };
  }

  private skippedOf(c: McpConnection): SkippedTool[] {
    let skipped = this.skippedCache.get(c.tools);
    if (!skipped) {
      skipped = serverToolDefinitions(c.name, c.tools, {}, async () => ({ ok: false, content: '' })).skipped;
      this.skippedCache.set(c.tools, skipped);
    }
    return skipped;
  }

  /**
   * The tools of one task: those of every started server as they are now, plus mcp_read_resource.
   * The task has its own restart budget, shared by all its servers' calls.
   */
  toolsForTask(): ToolDefinition[] {
    const budget = { restarts: 0 };
    const overrides = this.options.riskOverrides();
    const tools: ToolDefinition[] = [];
    for (const c of this.connections) {
      // A server that crashed keeps its last tools: the task's first call restarts it.
      if (c.state !== 'ready' && c.state !== 'failed') continue;
      const call = (tool: string, args: Record<string, unknown>, signal: AbortSignal) =>
        this.run(c, budget, signal, async (timeout) => callResult(c.name, tool, await c.callTool(tool, args, signal, timeout)));
      const defs = serverToolDefinitions(c.name, c.tools, overrides, call, this.options.trustedReadsOnly ?? false);
      if (!this.announced.has(c.tools)) for (const s of defs.skipped) this.notice(c.name, `left out the tool "${s.tool}": ${s.reason}`);
      this.announced.add(c.tools);
      tools.push(...defs.tools);
    }
    if (tools.length > 0) tools.push(resourceTool(this.connections, overrides, (c, signal, op) => this.run(c, budget, signal, op)));
    return tools;
  }

  /** One call to a server: restarted first if it crashed (within the task's budget), under the timeout. */
  private async run(
    c: McpConnection,
    budget: { restarts: number },
    signal: AbortSignal,
    op: (timeoutMs: number) => Promise<ToolResult>,
  ): Promise<ToolResult> {
    if (c.state === 'failed' && budget.restarts < MAX_RESTARTS_PER_TASK && this.options.mayStart(c.config) && !this.disabled.has(c.name)) {
      budget.restarts++;
      this.notice(c.name, `restarting (${budget.restarts} of ${MAX_RESTARTS_PER_TASK} this task) after: ${c.error ?? 'a failure'}`);
      await c.start();
    }
    if (c.state !== 'ready') {
      const why = c.state === 'failed' && budget.restarts >= MAX_RESTARTS_PER_TASK ? ' (restart limit for this task reached)' : '';
      return {
        ok: false,
        code: 'execution_failed',
        retryable: false,
        content: `The MCP server "${c.name}" is not running: ${c.error ?? c.state}${why}.`,
        summary: `${c.name}: not running`,
      };
    }
    try {
      return await op(this.options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS);
    } catch (err) {
      const result = callFailure(c.name, err, signal);
      if (result.code !== 'cancelled') this.notice(c.name, result.content);
      return result;
    }
  }

  onChange(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  onNotice(listener: (n: McpNotice) => void): () => void {
    this.noticeListeners.add(listener);
    return () => this.noticeListeners.delete(listener);
  }

  async dispose(): Promise<void> {
    await Promise.all(this.connections.map((c) => c.stop()));
    this.changeListeners.clear();
    this.noticeListeners.clear();
  }

  private find(name: string): McpConnection | undefined {
    return this.connections.find((c) => c.name === name);
  }

  private changed(): void {
    for (const l of this.changeListeners) l();
  }

  private notice(server: string, message: string): void {
    for (const l of this.noticeListeners) l({ server, message });
  }
}
