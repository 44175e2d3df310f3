// What the test-run sandbox costs each toolchain's own test command, warm: a small real project
// per toolchain (go, jest, vitest, pnpm, pytest, cargo), its command run directly (bash -c in the
// project, the user's environment and caches) against run_tests running it in the sandbox (the
// toolchain probe, the workspace scans and the report included; caches in Keel's folder for the
// project). Both are warmed first, then interleaved round by round so a busy machine slows both
// alike. A toolchain not on this machine is reported as skipped, with why. Projects and installs
// are kept in ~/.cache/keel/bench (jest, vitest and pnpm come from the npm registry once).
// KEEL_BENCH_TOOLCHAINS=go,cargo measures only those.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Workspace } from '../src/kernel/index.js';
import { createNodeWorkspace } from '../src/node/node-workspace.js';
import { COMMAND_SANDBOX_RULES } from '../src/tools/index.js';
import { runTestsTool } from '../src/tools/run-tests/run-tests.js';

const ROUNDS = 5;
const WARMUP = 2;
const BENCH = path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'keel', 'bench', 'toolchains');

export type ToolchainFigures = Record<string, { directMs: number; sandboxedMs: number; sandboxedOverDirect: number } | { skipped: string }>;

interface Project {
  name: string;
  command: string;
  /** The program that must be on PATH. */
  needs: string;
  files: Record<string, string>;
  /** npm packages installed into the project once. */
  install?: string[];
  /** Folders put on PATH for both runs (pnpm from the bench's own install). */
  path?: string[];
}

const many = (n: number, f: (i: number) => [string, string]) => Object.fromEntries(Array.from({ length: n }, (_, i) => f(i)));

function projects(): Project[] {
  const goPackage = (i: number): Record<string, string> => ({
    [`p${i}/p.go`]: `package p${i}\n\nimport (\n\t"fmt"\n\t"strings"\n)\n\nfunc Label(n int) string { return strings.ToUpper(fmt.Sprintf("item-%d", n)) }\n`,
    [`p${i}/p_test.go`]: `package p${i}\n\nimport "testing"\n\nfunc TestLabel(t *testing.T) {\n\tfor n := 0; n < 100; n++ {\n\t\tif Label(n) == "" {\n\t\t\tt.Fatal(n)\n\t\t}\n\t}\n}\n`,
  });
  const pnpmBin = path.join(BENCH, 'pnpm-bin', 'node_modules', '.bin');
  return [
    {
      name: 'go',
      command: 'go test -count=1 ./...',
      needs: 'go',
      files: {
        'go.mod': 'module example.com/bench\n\ngo 1.19\n',
        ...Object.assign({}, ...Array.from({ length: 8 }, (_, i) => goPackage(i))),
      },
    },
    {
      name: 'jest',
      command: 'npx --no-install jest',
      needs: 'node',
      install: ['jest@29.7.0'],
      files: {
        'package.json': '{"name":"bench-jest","private":true}\n',
        ...many(10, (i) => [
          `test/t${i}.test.js`,
          `test('adds ${i}', () => expect(${i} + 1).toBe(${i + 1}));\ntest('deep ${i}', () => expect({ a: [${i}] }).toEqual({ a: [${i}] }));\n`,
        ]),
      },
    },
    {
      name: 'vitest',
      command: 'npx --no-install vitest run',
      needs: 'node',
      install: ['vitest@3.2.4'],
      files: {
        'package.json': '{"name":"bench-vitest","private":true,"type":"module"}\n',
        ...many(10, (i) => [
          `test/t${i}.test.js`,
          `import { test, expect } from 'vitest';\ntest('adds ${i}', () => expect(${i} + 1).toBe(${i + 1}));\n`,
        ]),
      },
    },
    {
      name: 'pnpm',
      command: 'pnpm test',
      needs: 'pnpm',
      path: [pnpmBin],
      files: {
        'package.json': '{"name":"bench-pnpm","private":true,"packageManager":"pnpm@9.15.0","scripts":{"test":"node --test"}}\n',
        'pnpm-lock.yaml': "lockfileVersion: '9.0'\n",
        ...many(10, (i) => [
          `test/t${i}.test.mjs`,
          `import { test } from 'node:test';\nimport assert from 'node:assert';\ntest('adds ${i}', () => assert.equal(${i} + 1, ${i + 1}));\n`,
        ]),
      },
    },
    {
      name: 'pytest',
      command: 'python3 -m pytest',
      needs: 'python3',
      files: {
        'pytest.ini': '[pytest]\n',
        ...many(5, (i) => [
          `tests/test_m${i}.py`,
          Array.from({ length: 10 }, (_, k) => `def test_${k}():\n    assert ${k} + ${i} == ${k + i}\n`).join('\n'),
        ]),
      },
    },
    {
      name: 'cargo',
      command: 'cargo test --offline',
      needs: 'cargo',
      files: {
        'Cargo.toml': '[package]\nname = "bench"\nversion = "0.1.0"\nedition = "2021"\n',
        'src/lib.rs': `pub fn add(a: i64, b: i64) -> i64 { a + b }\n\n#[cfg(test)]\nmod tests {\n${Array.from({ length: 20 }, (_, k) => `    #[test]\n    fn t${k}() { assert_eq!(super::add(${k}, 1), ${k + 1}); }\n`).join('')}}\n`,
      },
    },
  ];
}

export async function sandboxedToolchains(): Promise<ToolchainFigures> {
  const out: ToolchainFigures = {};
  preparePnpm();
  const only = process.env.KEEL_BENCH_TOOLCHAINS?.split(',');
  for (const p of projects().filter((x) => !only || only.includes(x.name))) {
    const env = { ...process.env, PATH: [...(p.path ?? []), process.env.PATH].join(':') };
    if (spawnSync('sh', ['-c', `command -v ${p.needs}`], { env }).status !== 0) {
      out[p.name] = { skipped: `${p.needs} is not on this machine` };
      continue;
    }
    const dir = prepare(p);
    if (typeof dir !== 'string') {
      out[p.name] = dir;
      continue;
    }
    out[p.name] = await measure(p, dir, env);
  }
  return out;
}

function preparePnpm(): void {
  const prefix = path.join(BENCH, 'pnpm-bin');
  if (fs.existsSync(path.join(prefix, 'node_modules', '.bin', 'pnpm'))) return;
  fs.mkdirSync(prefix, { recursive: true });
  spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', '--prefix', prefix, 'pnpm@9.15.0'], { stdio: 'ignore' });
}

/** The project's folder (written once, dependencies installed once), or why it could not be made. */
function prepare(p: Project): string | { skipped: string } {
  const dir = path.join(BENCH, p.name);
  for (const [rel, content] of Object.entries(p.files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), content);
  }
  if (p.install && !fs.existsSync(path.join(dir, 'node_modules'))) {
    const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', '--no-save', ...p.install], {
      cwd: dir,
      stdio: 'ignore',
    });
    if (r.status !== 0) return { skipped: `npm install ${p.install.join(' ')} failed (no registry?)` };
  }
  return fs.realpathSync(dir);
}

async function measure(p: Project, dir: string, env: NodeJS.ProcessEnv) {
  const ws = await createNodeWorkspace(dir, { sandbox: { rules: COMMAND_SANDBOX_RULES, cacheDir: path.join(BENCH, 'sandbox-cache') } });
  if (ws.sandbox?.status().type !== 'ready') return { skipped: 'no sandbox on this machine' };
  const direct = () => timed(() => runDirect(p.command, dir, env));
  const sandboxed = () => timed(() => runSandboxed(p.command, ws, env));
  for (let i = 0; i < WARMUP; i++) {
    await direct();
    await sandboxed();
  }
  const [d, s]: [number[], number[]] = [[], []];
  for (let i = 0; i < ROUNDS; i++) {
    d.push(await direct());
    s.push(await sandboxed());
  }
  const [directMs, sandboxedMs] = [median(d), median(s)];
  return { directMs, sandboxedMs, sandboxedOverDirect: Number((sandboxedMs / directMs).toFixed(2)) };
}

function runDirect(command: string, cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/bash', ['--noprofile', '--norc', '-c', command], { cwd, env, stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', () => resolve());
  });
}

/** run_tests as the policy runs it unasked, with PATH as the direct run has it. */
async function runSandboxed(command: string, ws: Workspace, env: NodeJS.ProcessEnv): Promise<void> {
  const withPath: Workspace = { ...ws, runProcess: (line, o) => ws.runProcess(line, { ...o, env: { ...o.env, PATH: env.PATH ?? '' } }) };
  const ctx = {
    workspace: withPath,
    signal: new AbortController().signal,
    fileVersions: {},
    onProgress: () => {},
    sandbox: 'test_run' as const,
  };
  const r = await runTestsTool.execute({ command }, ctx);
  if ((r.data as { exitCode?: number } | undefined)?.exitCode !== 0) throw new Error(`${command} in the sandbox: ${r.content}`);
}

async function timed(run: () => Promise<void>): Promise<number> {
  const t = performance.now();
  await run();
  return performance.now() - t;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.floor(s.length / 2)]!);
}
