// bench:codeintel — the syntax-tree code index headless, on a generated 5,000-file TypeScript
// repository and on one real repository fetched for the bench (never committed; skipped with a
// message when absent):
// - repoMapBuildMs: a repo map from nothing, in a fresh process (runtime, grammars, walk, parse
//   of every file, rank, render), as it ships (parse workers on spare cores, the bundled worker),
//   interleaved with the same build on one thread (repoMapBuildSingleMs) as the baseline;
// - repoMapUpdateMs: one file changes, the host says so (VS Code's watcher, Keel's own write),
//   and the map is built again; repoMapRescanMs: the same found by walking the folder (the CLI);
// - findReferencesMs: find_references as the model calls it, beside search_files for the same
//   name in the same run (the baseline);
// - tokensToLocateRatio: tokens to find a function's definition and its calls with the symbol
//   tools over tokens with search_files + read_file (bench/codeintel/locate-task.ts), both ways
//   checked against the generator's truth;
// - warmStartMs and coldFirstRequestMs: `keel run --provider scripted` in fresh processes, timed
//   from the CLI's executeTask to the first model request, with the index's cache left by a first
//   run and with none (bench/codeintel/start-times.ts), on both repositories.
//
//   npm run bench:codeintel [-- --files N]     (KEEL_BENCH_REAL_REPO=a git dir overrides the real repo)
//   node --import=tsx bench/codeintel.ts --cold DIR [--workers N] [--worker-script FILE]   (one cold build)
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { TreeSitterIntel } from '../src/codeintel/tree-sitter-intel.js';
import type { ToolContext, Workspace } from '../src/kernel/index.js';
import { createNodeWorkspace } from '../src/node/node-workspace.js';
import { findReferencesTool } from '../src/tools/code/find-references.js';
import { searchFilesTool } from '../src/tools/search-files.js';
import { searchByWalking } from '../src/tools/search/walking-search.js';
import { scratchDir } from '../test/support/scratch.js';
import { bundledParseWorker } from './codeintel/bundle-worker.js';
import { generateRepo } from './codeintel/generate-repo.js';
import { withSearch, withSymbolTools } from './codeintel/locate-task.js';
import { describeStart, startTimes } from './codeintel/start-times.js';
import { median, round, writeResults } from './report.js';

const MAP_BUDGET = 2048;
const RUNS = 5;
const COLD_RUNS = 5;
const REAL_REPO = process.env.KEEL_BENCH_REAL_REPO ?? '/work/.mirror/colinhacks+zod/repo';
const REAL_SYMBOL = 'safeParse';
/** keel runs per start-up figure, cold and warm each (a fresh process each). */
const START_RUNS = 3;

/** In a child: one cold build of the map of `root`, printed as JSON (`--workers 0`: on one thread). */
async function coldChild(root: string, args: readonly string[]): Promise<void> {
  const flag = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
  const workers = flag('--workers');
  const script = flag('--worker-script');
  const options = { ...(workers === undefined ? {} : { parseWorkers: Number(workers) }), ...(script ? { parseWorkerScript: script } : {}) };
  const [started, cpu] = [performance.now(), process.cpuUsage()];
  const ws = await createNodeWorkspace(root, { rgPath: null });
  const request = { focusPaths: [], focusText: '', budgetTokens: MAP_BUDGET };
  const intel = new TreeSitterIntel(ws, options);
  const map = await intel.repoMap(request, new AbortController().signal);
  const parse = intel.index.lastParse;
  process.stdout.write(
    JSON.stringify({
      ms: performance.now() - started,
      cpuMs: cpuMs(cpu),
      files: map?.totalFiles ?? 0,
      workers: parse?.workers ?? 0,
      byWorkers: parse?.byWorkers ?? 0,
    }),
  );
}

/** CPU time (user + system) spent since `from`, in ms: what the work costs whatever the machine's load. */
function cpuMs(from: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(from);
  return (d.user + d.system) / 1000;
}

interface ColdBuild {
  ms: number;
  cpuMs: number;
  files: number;
  workers: number;
  byWorkers: number;
}

function coldBuild(root: string, extra: readonly string[]): ColdBuild {
  const child = spawnSync(process.execPath, [...process.execArgv, __filename, '--cold', root, ...extra], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`cold build failed: ${child.stderr}`);
  return JSON.parse(child.stdout) as ColdBuild;
}

/** Cold builds as shipped and on one thread, interleaved (the machine's load drifts): medians of each. */
async function coldBuilds(root: string) {
  const script = await bundledParseWorker();
  const pooled: ColdBuild[] = [];
  const single: ColdBuild[] = [];
  for (let i = 0; i < COLD_RUNS; i++) {
    pooled.push(coldBuild(root, ['--worker-script', script]));
    single.push(coldBuild(root, ['--workers', '0']));
  }
  const med = (runs: ColdBuild[]) => ({ ms: median(runs.map((r) => r.ms)), cpuMs: median(runs.map((r) => r.cpuMs)) });
  const p = pooled[0]!;
  return { ...med(pooled), files: p.files, workers: p.workers, byWorkers: median(pooled.map((r) => r.byWorkers)), single: med(single) };
}

/** Median wall and CPU time of `runs` calls. */
async function measure(runs: number, fn: (i: number) => Promise<unknown>): Promise<{ ms: number; cpuMs: number }> {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const [started, from] = [performance.now(), process.cpuUsage()];
    await fn(i);
    wall.push(performance.now() - started);
    cpu.push(cpuMs(from));
  }
  return { ms: median(wall), cpuMs: median(cpu) };
}

async function medianOf(runs: number, fn: (i: number) => Promise<unknown>): Promise<number> {
  return (await measure(runs, fn)).ms;
}

const ctxOf = (workspace: Workspace): ToolContext => ({
  workspace,
  signal: new AbortController().signal,
  fileVersions: {},
  onProgress: () => undefined,
});

async function generated(files: number) {
  const root = scratchDir('bench-codeintel');
  const repo = generateRepo(root, files);
  const request = { focusPaths: [repo.sample], focusText: 'fix the rounding in parseLedgerEntry', budgetTokens: MAP_BUDGET };
  const signal = new AbortController().signal;
  const cold = await coldBuilds(root);

  const base = await createNodeWorkspace(root, { rgPath: null });
  const watched = new TreeSitterIntel(base, { watched: true });
  await watched.repoMap(request, signal);
  const change = (i: number) =>
    appendFileSync(path.join(root, repo.sample), `\nexport function addedInRun${i}(): number { return ${i}; }\n`);
  const update = await measure(RUNS, async (i) => {
    change(i);
    await watched.index.touch([repo.sample]);
    await watched.repoMap(request, signal);
  });
  const walking = new TreeSitterIntel(base);
  await walking.repoMap(request, signal);
  const rescanMs = await medianOf(RUNS, async (i) => {
    change(RUNS + i);
    await walking.repoMap(request, signal);
  });

  // The tools as the model calls them (the CLI's workspace: ripgrep when on PATH, else the walking search).
  const ws = await createNodeWorkspace(root, { fallbackSearch: searchByWalking, codeIntel: (w) => new TreeSitterIntel(w) });
  const ctx = ctxOf(ws);
  await findReferencesTool.execute({ symbol: 'parseLedgerEntry', path: 'src/ledger/parse.ts', line: 8 }, ctx);
  const refs = (symbol: string, at: { path: string; line: number }) =>
    medianOf(RUNS, () => findReferencesTool.execute({ symbol, ...at }, ctx));
  const search = (symbol: string) => medianOf(RUNS, () => searchFilesTool.execute({ query: `\\b${symbol}\\b` }, ctx));
  const figures = {
    files: cold.files,
    repoMapBuildMs: round(cold.ms, 0),
    repoMapBuildCpuMs: round(cold.cpuMs, 0),
    parseWorkers: cold.workers,
    filesParsedByWorkers: cold.byWorkers,
    repoMapBuildSingleMs: round(cold.single.ms, 0),
    repoMapBuildSingleCpuMs: round(cold.single.cpuMs, 0),
    pooledOverSingleWall: round(cold.ms / cold.single.ms),
    pooledOverSingleCpu: round(cold.cpuMs / cold.single.cpuMs),
    repoMapUpdateMs: round(update.ms, 1),
    repoMapUpdateCpuMs: round(update.cpuMs, 1),
    repoMapRescanMs: round(rescanMs, 1),
    findReferencesMs: round(await refs('parseLedgerEntry', repo.truth.parseLedgerEntry.definition), 1),
    searchFilesMs: round(await search('parseLedgerEntry'), 1),
    findReferencesWideMs: round(await refs('formatRecord', repo.truth.formatRecord.definition), 1),
    searchFilesWideMs: round(await search('formatRecord'), 1),
  };
  const tools = await withSymbolTools(ctx, repo, 'parseLedgerEntry');
  const baseline = await withSearch(ctx, repo, 'parseLedgerEntry');
  const start = startTimes(root, request.focusText, START_RUNS);
  return { figures: { ...figures, ...start }, tools, baseline, map: await watched.repoMap(request, signal) };
}

async function real() {
  if (!existsSync(REAL_REPO))
    return { skipped: `no real repository at ${REAL_REPO}: fetch one (e.g. colinhacks/zod) or set KEEL_BENCH_REAL_REPO` };
  const root = scratchDir('bench-codeintel-real');
  execFileSync('sh', ['-c', `git --git-dir="${REAL_REPO}" archive HEAD | tar -x -C "${root}"`]);
  const commit = execFileSync('git', ['--git-dir', REAL_REPO, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  const cold = await coldBuilds(root);
  const ws = await createNodeWorkspace(root, { fallbackSearch: searchByWalking, codeIntel: (w) => new TreeSitterIntel(w) });
  const ctx = ctxOf(ws);
  const first = await findReferencesTool.execute({ symbol: REAL_SYMBOL }, ctx);
  const start = startTimes(root, `${REAL_SYMBOL} reports the wrong path for a nested array: fix ${REAL_SYMBOL}`, START_RUNS);
  return {
    ...start,
    repo: `${path.basename(path.dirname(REAL_REPO))}@${commit}`,
    files: cold.files,
    repoMapBuildMs: round(cold.ms, 0),
    repoMapBuildSingleMs: round(cold.single.ms, 0),
    findReferencesMs: round(await medianOf(RUNS, () => findReferencesTool.execute({ symbol: REAL_SYMBOL }, ctx)), 1),
    searchFilesMs: round(await medianOf(RUNS, () => searchFilesTool.execute({ query: `\\b${REAL_SYMBOL}\\b` }, ctx)), 1),
    references: first.summary,
  };
}

async function main(): Promise<void> {
  if (process.argv[2] === '--cold') return coldChild(process.argv[3]!, process.argv.slice(4));
  const filesAt = process.argv.indexOf('--files');
  const files = filesAt > 0 ? Number(process.argv[filesAt + 1]) : 5000;
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  const gen = await generated(files);
  const ratio = gen.tools.tokens / gen.baseline.tokens;
  const realRepo = await real();
  const results = {
    loadAverage: load,
    generated: gen.figures,
    tokensToLocate: { tools: gen.tools, baseline: gen.baseline, ratio: round(ratio) },
    tokensToLocateRatio: round(ratio),
    real: realRepo,
    loadAverageAfter: loadavg()
      .map((l) => l.toFixed(2))
      .join(' '),
  };
  const f = gen.figures;
  console.log(`bench:codeintel (load average ${load})`);
  console.log(`generated TypeScript repo, ${f.files} source files:`);
  console.log(
    `  repoMapBuildMs   ${f.repoMapBuildMs} (median of ${COLD_RUNS} fresh processes; CPU ${f.repoMapBuildCpuMs} ms; ${f.parseWorkers} parse worker(s) took ${f.filesParsedByWorkers} files; target ≤ 2000)`,
  );
  console.log(
    `  repoMapBuildSingleMs ${f.repoMapBuildSingleMs} (one thread, interleaved; CPU ${f.repoMapBuildSingleCpuMs} ms); pooled/single wall ${f.pooledOverSingleWall}, CPU ${f.pooledOverSingleCpu}`,
  );
  console.log(
    `  repoMapUpdateMs  ${f.repoMapUpdateMs} (one file changed, host told; median of ${RUNS}; CPU ${f.repoMapUpdateCpuMs} ms; target ≤ 100)`,
  );
  console.log(`  repoMapRescanMs  ${f.repoMapRescanMs} (one file changed, found by walking the folder)`);
  console.log(
    `  findReferencesMs ${f.findReferencesMs} for 81 uses (search_files ${f.searchFilesMs}, ratio ${round(f.findReferencesMs / f.searchFilesMs, 2)})`,
  );
  console.log(
    `  findReferencesMs ${f.findReferencesWideMs} for 10,001 uses (search_files ${f.searchFilesWideMs}, ratio ${round(f.findReferencesWideMs / f.searchFilesWideMs, 2)})`,
  );
  const way = (w: typeof gen.tools) =>
    `${w.tokens} tokens in ${w.calls} calls, ${w.complete ? 'complete' : 'INCOMPLETE'}, ${w.noise} noise lines`;
  console.log(`  locate parseLedgerEntry and its calls: symbol tools ${way(gen.tools)}; search+read ${way(gen.baseline)}`);
  console.log(`  tokensToLocateRatio ${round(ratio)} (target ≤ 0.3)`);
  console.log(`  ${describeStart(f)}`);
  if ('skipped' in realRepo) console.log(`real repository: skipped — ${realRepo.skipped}`);
  else
    console.log(
      `real repository ${realRepo.repo}, ${realRepo.files} source files: repoMapBuildMs ${realRepo.repoMapBuildMs} (one thread ${realRepo.repoMapBuildSingleMs}), findReferencesMs ${realRepo.findReferencesMs} for ${REAL_SYMBOL} (${realRepo.references}; search_files ${realRepo.searchFilesMs})\n  ${describeStart(realRepo)}`,
    );
  console.log(`load average after: ${results.loadAverageAfter}`);
  console.log(`wrote ${writeResults('codeintel', results)}`);
  if (!gen.tools.complete || !gen.baseline.complete) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
