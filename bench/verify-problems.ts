// The problems-after-edit figures of bench:verify, each a function another measurement can be
// combined with (bench/verify.ts writes them together):
// - problemsAfterEditMs: how long the problems take to settle after an edit is written, headless
//   (tsc --incremental in the read-only sandbox), on a generated TypeScript project of 500 files,
//   warm (after a first cold check), median over edits that alternately break and fix a type;
//   problemTokensPerEdit: the median size of the report those edits' results carry (chars / 4);
// - turnsToGreen: the turns a scripted model that acts only on what it is told takes to reach
//   passing tests on a seeded task (an edit that breaks a type; the tests run tsc first), with
//   the problems after each edit on and off.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ProblemSource, ToolContext } from '../src/kernel/index.js';
import { createNodeWorkspace } from '../src/node/node-workspace.js';
import { createNodeProblemSource } from '../src/node/problems/node-problem-source.js';
import { ScriptedProvider } from '../src/providers/scripted.js';
import { COMMAND_SANDBOX_RULES } from '../src/tools/index.js';
import { editFileTool } from '../src/tools/edit-file.js';
import { readFileTool } from '../src/tools/read-file.js';
import { fixerScript, type SeededTask } from '../test/support/problem-fixer.js';
import { runScriptedTask } from '../test/support/scripted-task.js';
import { median, round } from './report.js';

const REPO_MODULES = path.resolve(__dirname, '../node_modules');
const FILES = 500;
const EDITS = 6;

export interface ProblemFigures {
  files: number;
  edits: number;
  coldCheckMs: number;
  problemsAfterEditMs: number;
  problemTokensPerEdit: number;
}

export interface TurnFigures {
  turnsToGreen: { on: number; off: number };
}

/** A TypeScript project of `files` modules, each importing the one before it. */
function generatedProject(dir: string, files: number): void {
  fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { strict: true, noEmit: true, types: [] }, include: ['src'] }),
  );
  fs.symlinkSync(REPO_MODULES, path.join(dir, 'node_modules'));
  for (let i = 0; i < files; i++) {
    const previous = i === 0 ? '' : `import { value${i - 1} } from './m${i - 1}';\n`;
    const uses = i === 0 ? '0' : `value${i - 1}(x)`;
    const body = Array.from({ length: 20 }, (_, k) => `  const v${k}: number = x * ${k} + ${i};`).join('\n');
    fs.writeFileSync(
      path.join(dir, 'src', `m${i}.ts`),
      `${previous}export function value${i}(x: number): number {\n${body}\n  return ${uses} + v19;\n}\n`,
    );
  }
}

function toolContext(ws: ToolContext['workspace']): ToolContext {
  return { workspace: ws, signal: new AbortController().signal, fileVersions: {}, onProgress: () => undefined };
}

/** Times every fresh snapshot (the after-edit check); the baseline reuses the last one. */
function timedSource(source: ProblemSource, times: number[]): ProblemSource {
  return {
    async snapshot(files, o) {
      const started = performance.now();
      const snap = await source.snapshot(files, o);
      if (!o.reuse) times.push(performance.now() - started);
      return snap;
    },
  };
}

export async function measureProblemsAfterEdit(): Promise<ProblemFigures> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-bench-verify-'));
  try {
    generatedProject(root, FILES);
    const cacheDir = path.join(root, '..', `${path.basename(root)}-cache`);
    const base = await createNodeWorkspace(root, { sandbox: { rules: COMMAND_SANDBOX_RULES, cacheDir } });
    if (base.sandbox?.status().type !== 'ready') throw new Error('bench:verify needs the OS sandbox (bubblewrap)');
    const times: number[] = [];
    const source = timedSource(createNodeProblemSource(base), times);
    const ws = Object.assign(Object.create(base), { problems: source }) as typeof base;
    const file = `src/m${FILES / 2}.ts`;
    const ctx = toolContext(ws);
    const read = await readFileTool.execute({ path: file }, ctx);
    ctx.fileVersions = { ...read.fileVersions };
    const cold = performance.now();
    await source.snapshot([file], { signal: ctx.signal });
    const coldCheckMs = performance.now() - cold;
    times.length = 0;
    const tokens: number[] = [];
    for (let i = 0; i < EDITS; i++) {
      const [search, replace] = i % 2 === 0 ? ['  return ', '  return "x" + '] : ['  return "x" + ', '  return '];
      const result = await editFileTool.execute({ path: file, edits: [{ search, replace }] }, ctx);
      if (!result.ok) throw new Error(`edit ${i} failed: ${result.content}`);
      ctx.fileVersions = { ...ctx.fileVersions, ...result.fileVersions };
      const report = result.content.slice(result.content.indexOf('\n\nProblems after') + 2);
      tokens.push(Math.ceil(report.length / 4));
    }
    return {
      files: FILES,
      edits: EDITS,
      coldCheckMs: round(coldCheckMs, 0),
      problemsAfterEditMs: round(median(times), 0),
      problemTokensPerEdit: median(tokens),
    };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(`${root}-cache`, { recursive: true, force: true });
  }
}

const SEEDED: SeededTask = {
  file: 'count.ts',
  edit: { search: '  return items.length;', replace: '  return `${items.length}`;' },
  fixes: { "is not assignable to type 'number'": { search: '  return `${items.length}`;', replace: '  return items.length;' } },
};

/** A project whose tests type-check it first (as `tsc && node --test` does), then run. */
function seededProject(dir: string): void {
  fs.mkdirSync(path.join(dir, 'test'), { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { strict: true, noEmit: true, types: [] }, include: ['*.ts'] }),
  );
  fs.writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'seeded', private: true, scripts: { test: 'tsc -p . && node --test test/' } }),
  );
  fs.writeFileSync(path.join(dir, 'count.ts'), 'export function count(items: string[]): number {\n  return items.length;\n}\n');
  fs.writeFileSync(
    path.join(dir, 'test', 'count.test.mjs'),
    "import { test } from 'node:test';\nimport assert from 'node:assert';\ntest('counts', () => assert.equal(['a', 'b'].length, 2));\n",
  );
  fs.symlinkSync(REPO_MODULES, path.join(dir, 'node_modules'));
}

async function turnsWith(problems: boolean): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-bench-turns-'));
  try {
    const ws = path.join(dir, 'ws');
    fs.mkdirSync(ws);
    seededProject(ws);
    const provider = new ScriptedProvider(fixerScript(SEEDED, { runTests: true }));
    const flags = ['--approve', 'read,write,execute', ...(problems ? [] : ['--no-problems'])];
    const { result } = await runScriptedTask(ws, [...flags, 'make count return a string'], provider);
    if (!result.lastTest?.ok) throw new Error(`the seeded task did not reach passing tests (problems ${problems ? 'on' : 'off'})`);
    return provider.requests.length;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function measureTurnsToGreen(): Promise<TurnFigures> {
  return { turnsToGreen: { on: await turnsWith(true), off: await turnsWith(false) } };
}
