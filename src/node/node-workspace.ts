// The Workspace port on Node: files through node:fs (atomic writes), search through ripgrep
// (or a fallback), processes through Keel's one shell in their own process group, sandboxed
// as the policy chose.
import { createReadStream, promises as fs } from 'node:fs';
import type {
  BrowserChecker,
  CodeIntel,
  DirEntry,
  FileStat,
  ProblemSource,
  ProcessOptions,
  SearchQuery,
  SearchResult,
  SecretDetector,
  WebFetcher,
  Workspace,
} from '../kernel/index.js';
import { WorkspaceError } from '../kernel/index.js';
import { atomicWrite } from './atomic-write.js';
import { toWorkspaceError } from './fs-errors.js';
import { PathResolver } from './path-resolver.js';
import { findRipgrep, runRipgrep } from './ripgrep.js';
import { commandShell } from './command-shell.js';
import { runProcess } from './run-process.js';
import { createNodeSandbox, type NodeSandboxOptions } from './sandbox/node-sandbox.js';

type FallbackSearch = (ws: Workspace, query: SearchQuery, signal: AbortSignal) => Promise<SearchResult>;

export interface NodeWorkspaceOptions {
  /** Path of rg; null never uses ripgrep; absent looks for rg on PATH. */
  rgPath?: string | null;
  /**
   * Search used when there is no ripgrep; pass `searchByWalking` from src/tools. Without either,
   * search fails with a one-line error (the hosts always pass it; src/node may not import tools).
   */
  fallbackSearch?: FallbackSearch;
  /**
   * The secrets Keel holds (provider keys from settings or secret storage), asked for before
   * each command: no variable of a child process may carry one.
   */
  withheldSecrets?: () => Iterable<string> | Promise<Iterable<string>>;
  /**
   * The OS sandbox for commands the policy runs sandboxed (sandbox/node-sandbox.ts). Without it
   * the workspace has none: the policy asks before every command.
   */
  sandbox?: NodeSandboxOptions;
  /** Code intelligence for this workspace (the host's choice of engine), made once it exists. */
  codeIntel?: (ws: Workspace) => CodeIntel;
  /** Fetches web pages for web_fetch; without it the host offers no network tool. */
  web?: WebFetcher;
  /** Opens pages for browser_check; without it the host offers no browser. */
  browser?: BrowserChecker;
  /** The problems edits report (problems/node-problem-source.ts), made once the workspace exists; absent: none. */
  problems?: (ws: Workspace) => ProblemSource;
  /**
   * Inherited variables this detector says hold a credential are withheld from every command
   * too, but for the names `passEnv` lists (read before each command: a setting may change).
   */
  credentials?: { detector: SecretDetector; passEnv: () => readonly string[] };
}

export interface NodeWorkspace extends Workspace {
  readonly caseInsensitive: boolean;
}

export async function createNodeWorkspace(root: string, options: NodeWorkspaceOptions = {}): Promise<NodeWorkspace> {
  const paths = await PathResolver.create(root);
  const abs = (rel: string) => paths.absolute(rel);
  const rg = () =>
    options.rgPath === null ? Promise.resolve(undefined) : options.rgPath ? Promise.resolve(options.rgPath) : findRipgrep();

  const sandbox = options.sandbox ? await createNodeSandbox(paths.root, options.sandbox) : undefined;

  const ws: { -readonly [K in keyof NodeWorkspace]: NodeWorkspace[K] } = {
    root: paths.root,
    shell: commandShell(),
    ...(sandbox ? { sandbox } : {}),
    caseInsensitive: paths.caseInsensitive,
    resolve: (p) => paths.resolve(p),
    async readFile(p) {
      const rel = await paths.resolve(p);
      try {
        return new Uint8Array(await fs.readFile(abs(rel)));
      } catch (err) {
        throw toWorkspaceError(err, rel);
      }
    },
    async *readChunks(p, signal) {
      const rel = await paths.resolve(p);
      try {
        for await (const chunk of createReadStream(abs(rel), { highWaterMark: 1 << 20, signal }) as AsyncIterable<Buffer>)
          yield new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length);
      } catch (err) {
        throw toWorkspaceError(err, rel);
      }
    },
    async writeFile(p, data) {
      const rel = await paths.resolve(p);
      if (rel === '') throw new WorkspaceError('not_a_file', 'The workspace root is a folder, not a file.');
      try {
        await atomicWrite(abs(rel), data);
      } catch (err) {
        throw toWorkspaceError(err, rel);
      }
    },
    async stat(p) {
      const rel = await paths.resolve(p);
      const st = await fs.stat(abs(rel)).catch(() => undefined);
      if (!st) return undefined;
      const type: FileStat['type'] = st.isFile() ? 'file' : st.isDirectory() ? 'directory' : 'other';
      return { type, size: st.size, mtimeMs: st.mtimeMs };
    },
    async readDir(p) {
      const rel = await paths.resolve(p);
      try {
        const entries = await fs.readdir(abs(rel), { withFileTypes: true });
        return entries
          .map(
            (e): DirEntry => ({
              path: rel === '' ? e.name : `${rel}/${e.name}`,
              // Symlinks are listed but never followed by walkers: no cycles, no escapes.
              type: e.isFile() ? 'file' : e.isDirectory() ? 'directory' : 'other',
            }),
          )
          .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      } catch (err) {
        throw toWorkspaceError(err, rel);
      }
    },
    async search(query, signal) {
      // The files come from a walk of this root; a lexical check keeps any other list inside it.
      const outside = query.files.find((f) => !isRelativeInside(f));
      if (outside !== undefined) throw new WorkspaceError('outside_workspace', `${outside} is not a workspace-relative file path.`);
      const rgPath = await rg();
      if (rgPath) return runRipgrep(rgPath, paths.root, query, signal);
      if (options.fallbackSearch) return options.fallbackSearch(ws, query, signal);
      throw new WorkspaceError('io_error', 'No search here: ripgrep was not found and this host gave no other way to search.');
    },
    async runProcess(commandLine, opts: ProcessOptions) {
      const cwd = await paths.resolve(opts.cwd ?? '.');
      const st = await fs.stat(abs(cwd)).catch(() => undefined);
      if (!st?.isDirectory()) throw new WorkspaceError('not_a_directory', `${opts.cwd} is not a folder in the workspace.`);
      const held = (await options.withheldSecrets?.()) ?? [];
      const { detector, passEnv } = options.credentials ?? {};
      const environment = { held, credentials: detector, pass: passEnv?.() };
      return runProcess(commandLine, abs(cwd), opts, { environment, ...(sandbox ? { sandbox } : {}) });
    },
  };
  if (options.web) ws.web = options.web;
  if (options.browser) ws.browser = options.browser;
  if (options.codeIntel) ws.codeIntel = options.codeIntel(ws);
  if (options.problems) ws.problems = options.problems(ws);
  return ws;
}

/** A relative POSIX path that cannot leave the root by its spelling (no '..', not absolute). */
function isRelativeInside(p: string): boolean {
  if (p === '' || p.startsWith('/') || (process.platform === 'win32' && /^[A-Za-z]:|\\/.test(p))) return false;
  return !p.split('/').includes('..');
}
