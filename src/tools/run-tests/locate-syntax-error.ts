// Places the syntax errors a runner printed without a line. ava, uvu, jasmine and mocha print
// only V8's message for an ES module ("missing ) after argument list"), naming at most the test
// file that failed to load, though the error is often in a module it imports; vite names the
// file but says 1:0. So: parse the candidates with node --check (syntax-check.ts), starting at
// the file the runner named (else the test files the command names) and following relative
// imports breadth-first; the error is placed only where node reproduces the runner's message
// (or, for vite, in the very file vite rejected). Nothing is guessed: no match, no line.
import type { SandboxProfile, Workspace } from '../../kernel/index.js';
import { CHECKABLE, relativeSpecifiers, resolveSpecifier } from './js-imports.js';
import { mergeLoadErrors } from './merge-load-errors.js';
import { checkSyntax, type ModuleKind, type SyntaxErrorAt } from './syntax-check.js';
import { commandTestFiles, packageType } from './test-command-files.js';
import type { TestFailure, TestReport } from './test-report.js';

/** Files parsed per report at most: each check is a Node process. */
const MAX_CHECKED_FILES = 40;
const decoder = new TextDecoder();

export interface LocateContext {
  workspace: Workspace;
  /** The test command that ran: its arguments name the test files when the runner named none. */
  command: string;
  signal: AbortSignal;
  /** The tests' sandbox profile: the checks run read-only in the sandbox when the tests ran in one. */
  sandbox?: SandboxProfile;
}

export async function locateSyntaxErrors(report: TestReport, ctx: LocateContext): Promise<TestReport> {
  if (!report.failures.some((f) => f.unplaced)) return report;
  const search = new ImportSearch(ctx);
  const failures: TestFailure[] = [];
  for (const f of report.failures) failures.push(f.unplaced ? await search.place(f) : f);
  return { ...report, failures: mergeLoadErrors(failures) };
}

class ImportSearch {
  private readonly results = new Map<string, SyntaxErrorAt | undefined>();
  private checked = 0;

  constructor(private readonly ctx: LocateContext) {}

  async place(f: TestFailure): Promise<TestFailure> {
    const u = f.unplaced!;
    const found =
      u.type === 'rejected_file'
        ? await this.check(u.file, 'module').then((at) => at && { file: u.file, at })
        : await this.search(await this.startFiles(f), u.message);
    if (!found) return f;
    const { unplaced: _, ...rest } = f;
    const placed: TestFailure = {
      ...rest,
      file: found.file,
      line: found.at.line,
      message: `SyntaxError: ${found.at.message}\n(placed by node --check ${found.file}: the runner printed no line)`,
    };
    if (found.at.column !== undefined) placed.column = found.at.column;
    if (found.at.context !== undefined) placed.context = found.at.context;
    return placed;
  }

  /** The file the runner named, the test files it stopped, else the test files the command names. */
  private async startFiles(f: TestFailure): Promise<string[]> {
    const named = [f.file, ...(f.stopped ?? [f.name])].filter((p): p is string => p !== undefined && CHECKABLE.test(p));
    return named.length ? [...new Set(named)] : commandTestFiles(this.ctx.workspace, this.ctx.command);
  }

  /** Breadth-first from the start files through relative imports, to the first file where node gives `message`. */
  private async search(start: readonly string[], message: string): Promise<{ file: string; at: SyntaxErrorAt } | undefined> {
    const queue = [...start];
    const seen = new Set(queue);
    while (queue.length && this.checked < MAX_CHECKED_FILES && !this.ctx.signal.aborted) {
      const file = queue.shift()!;
      for (const kind of await this.kindsOf(file)) {
        const at = await this.check(file, kind);
        if (at?.message === message) return { file, at };
      }
      for (const next of await this.importsOf(file)) {
        if (seen.has(next)) continue;
        seen.add(next);
        queue.push(next);
      }
    }
    return undefined;
  }

  /** How Node would parse the file: its extension, else its package's "type", else either (Node detects). */
  private async kindsOf(file: string): Promise<ModuleKind[]> {
    if (file.endsWith('.mjs')) return ['module'];
    if (file.endsWith('.cjs')) return ['commonjs'];
    const type = await packageType(this.ctx.workspace, file);
    return type ? [type] : ['commonjs', 'module'];
  }

  private async check(file: string, kind: ModuleKind): Promise<SyntaxErrorAt | undefined> {
    const key = `${kind}:${file}`;
    if (!this.results.has(key)) {
      this.checked++;
      this.results.set(key, await checkSyntax(this.ctx.workspace, file, kind, this.ctx.signal, this.ctx.sandbox).catch(() => undefined));
    }
    return this.results.get(key);
  }

  private async importsOf(file: string): Promise<string[]> {
    const ws = this.ctx.workspace;
    const source = await ws.readFile(file).then(
      (b) => decoder.decode(b),
      () => '',
    );
    const resolved = await Promise.all(relativeSpecifiers(source).map((spec) => resolveSpecifier(ws, file, spec)));
    return resolved.filter((p): p is string => p !== undefined && !/(?:^|\/)node_modules\//.test(p));
  }
}
