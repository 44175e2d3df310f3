// A real VS Code for tests: code-server from npm (installed by scripts/setup-e2e.sh into a cache
// outside the repo), with a throwaway profile per start and the extensions under test
// installed from VSIX files.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { failure, makeTempDir, repoRoot } from '../../scripts/vsix.js';
import { freePort, spawnGroup, waitFor, type GroupProcess } from './processes.js';

// Packaging lives in scripts/ (the scripts need it too); the tests import it from here as before.
export { makeTempDir, packageVsix, repoRoot, vscePackage } from '../../scripts/vsix.js';

const run = promisify(execFile);

let launcherPath: string | undefined;

/** Runs the (idempotent, cached) setup script and returns the code-server launcher. */
export async function ensureCodeServer(): Promise<string> {
  if (launcherPath) return launcherPath;
  if (process.env.KEEL_CODE_SERVER && existsSync(process.env.KEEL_CODE_SERVER)) {
    return (launcherPath = process.env.KEEL_CODE_SERVER);
  }
  const { stdout } = await run('bash', [join(repoRoot, 'scripts', 'setup-e2e.sh')], {
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, CI: process.env.CI ?? 'true' },
  });
  const lines = stdout.trim().split('\n');
  launcherPath = lines[lines.length - 1];
  if (!launcherPath || !existsSync(launcherPath)) throw new Error(`setup-e2e.sh printed no launcher: ${stdout}`);
  return launcherPath;
}

/** Copies a sample workspace (e.g. examples/failing-tests) into a fresh temp folder. */
export function copyWorkspace(example: string, keep = false): string {
  const dir = join(makeTempDir('ws', keep), example.split('/').pop()!);
  cpSync(join(repoRoot, example), dir, { recursive: true });
  return dir;
}

export interface CodeServerOptions {
  folder: string;
  settings?: Record<string, unknown>;
  env?: Record<string, string>;
  extensions?: string[];
  trust?: boolean; // keep workspace trust on (only for tests about trust)
  port?: number; // default: any free port
}

export interface CodeServer {
  readonly url: string; // workbench URL with the folder open
  readonly port: number;
  readonly userDataDir: string;
  readonly folder: string;
  readonly process: GroupProcess;
  stop(): Promise<void>;
}

export const baseSettings: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.enableExperiments': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'security.workspace.trust.enabled': false,
  'chat.disableAIFeatures': true,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'git.enabled': false,
  'window.restoreWindows': 'none',
  'files.hotExit': 'off',
  'npm.autoDetect': 'off',
  'typescript.disableAutomaticTypeAcquisition': true, // it would fetch types from the network
};

export async function startCodeServer(options: CodeServerOptions): Promise<CodeServer> {
  const launcher = await ensureCodeServer();
  const root = makeTempDir('cs');
  const userDataDir = join(root, 'user-data');
  const extensionsDir = join(root, 'extensions');
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  const settings = { ...baseSettings, ...(options.trust ? { 'security.workspace.trust.enabled': true } : {}), ...options.settings };
  writeFileSync(join(userDataDir, 'User', 'settings.json'), JSON.stringify(settings, null, 2));

  const profile = ['--user-data-dir', userDataDir, '--extensions-dir', extensionsDir];
  if (options.extensions?.length) {
    const installs = options.extensions.flatMap((vsix) => ['--install-extension', vsix]);
    try {
      await run(launcher, [...profile, ...installs, '--force'], {
        maxBuffer: 16 * 1024 * 1024,
        env: { ...process.env, EXTENSIONS_GALLERY: '{}' },
      });
    } catch (error) {
      throw new Error(`installing ${options.extensions.join(', ')} failed: ${failure(error)}`);
    }
  }

  const port = options.port ?? (await freePort());
  const args = [
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${port}`,
    ...profile,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-getting-started-override',
    ...(options.trust ? [] : ['--disable-workspace-trust']),
    options.folder,
  ];
  // An empty gallery: no requests to open-vsx.org (unreachable here, and not under test).
  const env: NodeJS.ProcessEnv = { ...process.env, EXTENSIONS_GALLERY: '{}', ...options.env };
  // The extension host inherits this environment; keep the tests' own Node flags out of it.
  delete env.NODE_OPTIONS;
  const server = spawnGroup(launcher, args, { env, cwd: options.folder });
  try {
    await waitFor(
      `code-server on port ${port}`,
      async () => {
        if (server.child.exitCode !== null) throw new Error(`code-server exited: ${server.output()}`);
        const res = await fetch(`http://127.0.0.1:${port}/healthz`);
        return res.ok;
      },
      { timeoutMs: 60_000, intervalMs: 200 },
    );
  } catch (error) {
    await server.stop();
    throw new Error(`${(error as Error).message}\n--- code-server output ---\n${server.output()}`);
  }
  return {
    url: `http://127.0.0.1:${port}/?folder=${encodeURIComponent(options.folder)}`,
    port,
    userDataDir,
    folder: options.folder,
    process: server,
    async stop() {
      await server.stop();
      if (!process.env.KEEL_KEEP_TEMP) rmSync(root, { recursive: true, force: true });
    },
  };
}
