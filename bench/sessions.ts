// Worktree session figures (issue 39): on a generated 5,000-file git repository, the time to start
// a session in a new worktree (git worktree add, the dependency links, the record) without
// dependencies and with a 20,000-file node_modules, against copying that node_modules (the cost
// the link avoids, `cp -a --reflink=auto`: copy-on-write where the file system can), and the time
// `keel worktree list` takes to read four sessions. Medians; writes bench/results/sessions.json.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import { createSession, findRepo, listSessions, runGit, sessionLayout, type RepoInfo } from '../src/node/worktrees/index.js';
import { median, round, writeResults } from './report.js';

const FILES = 5_000;
const DEPENDENCY_FILES = 20_000;
const RUNS = 5;

function generate(root: string, folder: string, count: number): void {
  for (let d = 0; d < count / 100; d++) {
    const dir = path.join(root, folder, `d${d}`);
    fs.mkdirSync(dir, { recursive: true });
    for (let f = 0; f < 100; f++) fs.writeFileSync(path.join(dir, `f${f}.js`), `// file ${d}/${f}\n${'x'.repeat(400)}\n`);
  }
}

async function repository(base: string, withDependencies: boolean): Promise<RepoInfo> {
  const top = path.join(base, withDependencies ? 'with-deps' : 'plain');
  generate(top, 'src', FILES);
  fs.writeFileSync(path.join(top, '.gitignore'), 'node_modules/\n');
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=B', '-c', 'user.email=b@x.invalid', ...args], { cwd: top });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'generated');
  if (withDependencies) generate(top, 'node_modules', DEPENDENCY_FILES);
  const found = await findRepo(runGit, top);
  if (found.type !== 'repo') throw new Error(found.reason);
  return found.repo;
}

async function startTimes(repo: RepoInfo, env: NodeJS.ProcessEnv, label: string): Promise<number[]> {
  const layout = sessionLayout(repo, env);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await createSession(repo, layout, { task: 'bench', caps: {}, name: `${label}-${i}` });
    times.push(performance.now() - t);
  }
  return times;
}

function copyTime(repo: RepoInfo, base: string): number {
  const t = performance.now();
  execFileSync('cp', ['-a', '--reflink=auto', path.join(repo.top, 'node_modules'), path.join(base, 'copied-node_modules')]);
  return performance.now() - t;
}

async function listTime(repo: RepoInfo, env: NodeJS.ProcessEnv): Promise<number> {
  const t = performance.now();
  await listSessions(runGit, repo, sessionLayout(repo, env));
  return performance.now() - t;
}

async function main(): Promise<void> {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(tmpdir(), 'keel-bench-sessions-')));
  const env = { ...process.env, XDG_CONFIG_HOME: path.join(base, 'config') };
  try {
    const plain = await repository(base, false);
    const withDeps = await repository(base, true);
    const noDeps = median(await startTimes(plain, env, 'plain'));
    const linked = median(await startTimes(withDeps, env, 'deps'));
    const copied = copyTime(withDeps, base);
    const results = {
      files: FILES,
      dependencyFiles: DEPENDENCY_FILES,
      runs: RUNS,
      startMsWithoutDependencies: round(noDeps, 1),
      startMsWithLinkedDependencies: round(linked, 1),
      copyDependenciesMs: round(copied, 1),
      linkSavesRatio: round((linked + copied) / linked, 2),
      listMsFiveSessions: round(await listTime(plain, env), 1),
      loadAverage: loadavg().map((n) => round(n, 2)),
    };
    for (const [k, v] of Object.entries(results)) console.log(`${k}: ${JSON.stringify(v)}`);
    console.log(`wrote ${writeResults('sessions', results)}`);
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
}

void main();
