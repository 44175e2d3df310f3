// Runs test/integration/**/*.test.ts inside a real VS Code extension host: packages Keel (a test
// build, whose `activate` returns the test API) and the test-only runner extension, starts
// code-server with both on a fresh copy of examples/failing-tests, opens the workbench in
// Chromium (the extension host starts only when a browser opens it), waits for the runner's JSON
// result and prints it.
//
//   node --import=tsx test/integration/run.ts [--grep <pattern>]
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { openWorkbench, type Workbench } from '../support/browser.js';
import { copyWorkspace, makeTempDir, packageVsix, repoRoot, startCodeServer, type CodeServer } from '../support/code-server.js';
import { delay } from '../support/processes.js';
import { buildRunnerVsix } from './build.js';
import { readResult, report } from './report.js';
import { userSettings } from './user-settings.js';

const timeoutMs = Number(process.env.KEEL_INTEGRATION_TOTAL_TIMEOUT ?? 300_000);

async function main(): Promise<number> {
  const grepAt = process.argv.indexOf('--grep');
  const grep = grepAt > 0 ? process.argv[grepAt + 1] : undefined;
  const started = Date.now();
  const [keel, runner] = await Promise.all([packageVsix({ testApi: true }), buildRunnerVsix()]);
  const resultPath = join(makeTempDir('integration-result'), 'result.json');
  let server: CodeServer | undefined;
  let workbench: Workbench | undefined;
  try {
    server = await startCodeServer({
      folder: copyWorkspace('examples/failing-tests'),
      extensions: [keel, runner],
      settings: userSettings,
      env: {
        KEEL_INTEGRATION_RESULT: resultPath,
        ...(grep ? { KEEL_INTEGRATION_GREP: grep } : {}),
      },
    });
    workbench = await openWorkbench(server.url, { artifactsDir: join(repoRoot, 'test', 'e2e', 'artifacts', 'integration') });
    const deadline = Date.now() + timeoutMs;
    while (!existsSync(resultPath)) {
      if (Date.now() > deadline) {
        await workbench.screenshot('timeout');
        console.error(`no result after ${timeoutMs} ms\n--- code-server output ---\n${server.process.output()}`);
        return 1;
      }
      if (server.process.child.exitCode !== null) {
        console.error(`code-server exited\n${server.process.output()}`);
        return 1;
      }
      await delay(250);
    }
    return report(readResult(resultPath)!, Date.now() - started, 'code-server');
  } finally {
    await workbench?.close();
    await server?.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
