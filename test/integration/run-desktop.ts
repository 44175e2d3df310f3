// Runs the same integration suites as run.ts, in desktop VS Code through @vscode/test-electron
// (`npm run test:integration:desktop`): Keel built for production with the test API
// (esbuild.mjs --test-api) in a staging folder is the extension under development, the bundled
// runner (build.ts) is the extension tests module, on a fresh copy of examples/failing-tests with a throwaway profile.
//
// VS Code comes from KEEL_VSCODE_EXECUTABLE when set (a desktop install, e.g.
// /usr/share/code/code); otherwise @vscode/test-electron downloads the latest stable build,
// which needs the internet. The machines this project runs CI on have none and use
// code-server instead (`npm run test:integration`): this path is not exercised there.
// On Linux without a display, run it under xvfb-run.
//
//   node --import=tsx test/integration/run-desktop.ts [--grep <pattern>]
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runTests } from '@vscode/test-electron';
import { stageBuild } from '../../scripts/vsix.js';
import { baseSettings, copyWorkspace, makeTempDir } from '../support/code-server.js';
import { bundleRunner } from './build.js';
import { readResult, report } from './report.js';

const EXECUTABLE_VAR = 'KEEL_VSCODE_EXECUTABLE';

/** The VS Code to run: the one named by KEEL_VSCODE_EXECUTABLE, or undefined to download one. */
function vscodeExecutable(): string | undefined {
  const given = process.env[EXECUTABLE_VAR];
  if (!given) return undefined;
  if (!existsSync(given)) throw new Error(`${EXECUTABLE_VAR}=${given}: no such file. Point it at a VS Code executable.`);
  return given;
}

/** A profile of its own, with the settings the code-server runs use (no tips, no updates, no trust prompt). */
function profile(): { userDataDir: string; extensionsDir: string } {
  const root = makeTempDir('desktop');
  const userDataDir = join(root, 'user-data');
  const extensionsDir = join(root, 'extensions');
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  writeFileSync(join(userDataDir, 'User', 'settings.json'), JSON.stringify(baseSettings, null, 2));
  return { userDataDir, extensionsDir };
}

async function main(): Promise<number> {
  const grepAt = process.argv.indexOf('--grep');
  const grep = grepAt > 0 ? process.argv[grepAt + 1] : undefined;
  const started = Date.now();
  const vscodeExecutablePath = vscodeExecutable();
  const [keel, runner] = await Promise.all([stageBuild({ testApi: true }), bundleRunner(makeTempDir('integration-runner'))]);
  const resultPath = join(makeTempDir('integration-result'), 'result.json');
  const { userDataDir, extensionsDir } = profile();
  try {
    await runTests({
      vscodeExecutablePath,
      extensionDevelopmentPath: keel,
      extensionTestsPath: runner,
      extensionTestsEnv: { KEEL_INTEGRATION_RESULT: resultPath, ...(grep ? { KEEL_INTEGRATION_GREP: grep } : {}) },
      launchArgs: [
        copyWorkspace('examples/failing-tests'),
        '--user-data-dir',
        userDataDir,
        '--extensions-dir',
        extensionsDir,
        '--disable-workspace-trust',
        '--skip-welcome',
        '--skip-release-notes',
      ],
    });
  } catch (error) {
    const result = readResult(resultPath);
    if (result) return report(result, Date.now() - started, 'desktop VS Code');
    const why = error instanceof Error ? error.message : String(error);
    console.error(
      vscodeExecutablePath
        ? `VS Code (${vscodeExecutablePath}) ended before the suite reported: ${why}`
        : `Could not get VS Code to test in: ${why}\n` +
            `Without the internet @vscode/test-electron cannot download it. Set ${EXECUTABLE_VAR} to a VS Code ` +
            'executable, or run `npm run test:integration` (code-server) instead.',
    );
    return 1;
  }
  return report(
    readResult(resultPath) ?? { fatal: 'VS Code exited without a result file', results: [] },
    Date.now() - started,
    'desktop VS Code',
  );
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
