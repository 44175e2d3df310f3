// Step 2 of the MCP client: one server's connection through the official SDK (stdio or
// streamable HTTP). It knows the server's state for the view (starting / ready / failed, with
// its stderr tail), lists its tools and resources, and calls a tool under a per-call timeout.
// A server that exits is marked failed; whoever calls next decides whether to restart it.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, Resource, Tool } from '@modelcontextprotocol/sdk/types.js';
import { describeServer, type McpServerConfig } from './config.js';

export type McpServerState = 'disabled' | 'awaiting_approval' | 'stopped' | 'starting' | 'ready' | 'failed';

/** How much of a server's stderr the view keeps (its last characters). */
const STDERR_TAIL_CHARS = 4000;
/** How long a server may take to start and list its tools. */
const DEFAULT_START_TIMEOUT_MS = 30_000;

export interface ConnectionOptions {
  /** The environment a stdio server gets: the host's scrubbed one plus the configured variables. */
  env(configured: Readonly<Record<string, string>>): Record<string, string>;
  /** The folder a stdio server starts in when its definition names none. */
  cwd?: string | undefined;
  startTimeoutMs?: number;
  onChange(): void;
  /** How a stdio server is started when not as defined (inside the OS sandbox); undefined: as defined. */
  launch?(config: McpServerConfig, cwd: string | undefined, env: Record<string, string>): McpLaunch | undefined;
}

/** The program and arguments that start a stdio server. */
interface McpLaunch {
  command: string;
  args: string[];
}

export class McpConnection {
  state: McpServerState = 'stopped';
  /** Why it failed, for the view and the model. */
  error: string | undefined;
  stderrTail = '';
  tools: Tool[] = [];
  /** How many times it has been started (1 after the first start). */
  starts = 0;
  private client: Client | undefined;
  private starting: Promise<void> | undefined;
  private stopping = false;

  constructor(
    readonly config: McpServerConfig,
    private readonly options: ConnectionOptions,
  ) {}

  get name(): string {
    return this.config.name;
  }

  /** The exact command line or URL, as approval shows it. */
  get line(): string {
    return describeServer(this.config.definition);
  }

  /** Starts (or restarts) the server and lists its tools; resolves once it is ready or failed. */
  start(): Promise<void> {
    if (!this.starting) this.starting = this.connect().finally(() => (this.starting = undefined));
    return this.starting;
  }

  private async connect(): Promise<void> {
    await this.closeClient();
    this.starts++;
    this.set('starting', undefined);
    const client = new Client({ name: 'keel', version: '1' });
    this.client = client;
    client.onclose = () => {
      if (this.client === client && !this.stopping) this.set('failed', 'the server closed the connection (it may have exited)');
    };
    // Malformed messages are reported here; a call in flight still ends by its own timeout.
    client.onerror = (err) => this.appendStderr(`[keel] ${messageOf(err)}\n`);
    try {
      const timeout = this.options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
      await withTimeout(client.connect(this.transport(), { timeout }), timeout, 'the server did not start in time');
      const listed = await client.listTools(undefined, { timeout });
      if (this.client !== client) return;
      this.tools = listed.tools;
      this.set('ready', undefined);
    } catch (err) {
      if (this.client === client) {
        this.set('failed', messageOf(err));
        await this.closeClient();
      }
    }
  }

  private transport(): Transport {
    const d = this.config.definition;
    if (d.type === 'http') return new StreamableHTTPClientTransport(new URL(d.url), { requestInit: { headers: d.headers } });
    const cwd = d.cwd ?? this.options.cwd;
    const env = this.options.env(d.env);
    const launch = this.options.launch?.(this.config, cwd, env) ?? { command: d.command, args: d.args };
    const transport = new StdioClientTransport({
      command: launch.command,
      args: launch.args,
      env,
      stderr: 'pipe',
      ...(cwd ? { cwd } : {}),
    });
    transport.stderr?.on('data', (chunk: Uint8Array | string) => this.appendStderr(String(chunk)));
    return transport;
  }

  async callTool(name: string, args: Record<string, unknown>, signal: AbortSignal, timeoutMs: number): Promise<CallToolResult> {
    const client = this.readyClient();
    return perCall(
      signal,
      (s) => client.callTool({ name, arguments: args }, undefined, { signal: s, timeout: timeoutMs }) as Promise<CallToolResult>,
    );
  }

  async listResources(signal: AbortSignal, timeoutMs: number): Promise<Resource[]> {
    const client = this.readyClient();
    if (!client.getServerCapabilities()?.resources) return [];
    const out: Resource[] = [];
    let cursor: string | undefined;
    do {
      const params = cursor ? { cursor } : undefined;
      const page = await perCall(signal, (s) => client.listResources(params, { signal: s, timeout: timeoutMs }));
      out.push(...page.resources);
      cursor = page.nextCursor;
    } while (cursor && out.length < 1000);
    return out;
  }

  async readResource(uri: string, signal: AbortSignal, timeoutMs: number) {
    const client = this.readyClient();
    return perCall(signal, (s) => client.readResource({ uri }, { signal: s, timeout: timeoutMs }));
  }

  async stop(state: McpServerState = 'stopped'): Promise<void> {
    this.stopping = true;
    try {
      await this.closeClient();
    } finally {
      this.stopping = false;
    }
    this.tools = [];
    this.set(state, undefined);
  }

  private readyClient(): Client {
    if (this.state !== 'ready' || !this.client)
      throw new Error(`the MCP server "${this.name}" is not running (${this.error ?? this.state})`);
    return this.client;
  }

  private async closeClient(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    await client?.close().catch(() => undefined);
  }

  private appendStderr(text: string): void {
    this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL_CHARS);
    this.options.onChange();
  }

  private set(state: McpServerState, error: string | undefined): void {
    this.state = state;
    this.error = error;
    this.options.onChange();
  }
}

/**
 * The SDK leaves a listener on the signal it is given after each request: a call gets its own
 * signal, tied to the task's for the call's length only, so a long task does not pile them up.
 */
async function perCall<T>(task: AbortSignal, op: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const call = new AbortController();
  const abort = () => call.abort(task.reason);
  if (task.aborted) abort();
  else task.addEventListener('abort', abort, { once: true });
  try {
    return await op(call.signal);
  } finally {
    task.removeEventListener('abort', abort);
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** An error in words; a command that could not be started ("spawn x ENOENT") names the command. */
export function messageOf(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const { code, path } = err as Error & { code?: unknown; path?: unknown };
  const spawned = /^spawn (\S+) /.exec(err.message)?.[1];
  if (code === 'ENOENT' && (typeof path === 'string' || spawned))
    return `the command "${typeof path === 'string' ? path : spawned}" was not found: is it installed, and on the PATH Keel sees?`;
  return err.message;
}
