// Runs test/integration/**/*.test.ts inside a real VS Code extension host:
// packages Keel and the test-only runner extension, starts code-server with both on a fresh
// copy of examples/failing-tests, opens the workbench in Chromium (the extension host starts
// only when a browser opens it), waits for the runner's JSON result and prints it.
//
//   node --import=tsx test/integration/run.ts [--grep <pattern>]
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openWorkbench, type Workbench } from '../support/browser.js';
import { copyWorkspace, makeTempDir, packageVsix, repoRoot, startCodeServer, type CodeServer } from '../support/code-server.js';
import { delay } from '../support/processes.js';
import { buildRunnerVsix } from './build.js';
import { userSettings } from './user-settings.js';

interface TestResult {
  title: string;
  fullTitle: string;
  state: 'passed' | 'failed' | 'pending';
  durationMs: number;
  error?: string;
}

const timeoutMs = Number(process.env.KEEL_INTEGRATION_TOTAL_TIMEOUT ?? 300_000);

async function main(): Promise<number> {
  const grepAt = process.argv.indexOf('--grep');
  const grep = grepAt > 0 ? process.argv[grepAt + 1] : undefined;
  const started = Date.now();
  const [keel, runner] = await Promise.all([packageVsix(), buildRunnerVsix()]);
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
    const { fatal, results } = JSON.parse(readFileSync(resultPath, 'utf8')) as { fatal?: string; results: TestResult[] };
    return report(results, fatal, Date.now() - started);
  } finally {
    await workbench?.close();
    await server?.stop();
  }
}

function report(results: TestResult[], fatal: string | undefined, elapsedMs: number): number {
  console.log('\n  integration tests (inside the VS Code extension host)\n');
  for (const r of results) {
    const mark = r.state === 'passed' ? '✔' : r.state === 'pending' ? '-' : '✖';
    console.log(`    ${mark} ${r.fullTitle}${r.state === 'passed' ? ` (${r.durationMs}ms)` : ''}`);
  }
  const failed = results.filter((r) => r.state === 'failed');
  const passed = results.filter((r) => r.state === 'passed').length;
  const pending = results.filter((r) => r.state === 'pending').length;
  console.log(`\n  ${passed} passing, ${failed.length} failing, ${pending} pending (${Math.round(elapsedMs / 1000)}s in all)`);
  for (const [i, r] of failed.entries()) console.log(`\n  ${i + 1}) ${r.fullTitle}\n     ${r.error?.replace(/\n/g, '\n     ')}`);
  if (fatal) console.log(`\n  runner failed before or while running the tests:\n  ${fatal}`);
  return failed.length > 0 || fatal || results.length === 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
