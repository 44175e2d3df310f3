// go test (-v or not). Each package's output comes whole, then its "ok/FAIL <package>" line, so
// a test's "    x_test.go:13: message" (its continuation lines indented deeper) gets the
// package's folder from that line and go.mod's module path. A panic names the test that was
// running, with a goroutine trace of absolute paths. "# <package>" followed by "file.go:L:C: …"
// lines is a build failure: one load error per package, at its first compiler message (the
// others, often follow-on errors, in its text), counting the packages "[build failed]" because
// of it. Without -v go lists only failing tests, so passing ones are not counted (unless no
// package ran: then none passed); packages are.
import { firstWorkspaceFrame, relativeTo } from '../locate.js';
import type { OutputParser, ParseContext, TestFailure, TestReport } from '../test-report.js';

type Status = 'PASS' | 'FAIL' | 'SKIP';

interface GoTest {
  status?: Status;
  file?: string;
  line?: number;
  /** Message lines, continuation lines included. */
  messages: string[];
  /** The indentation of the current message's first line; deeper lines continue it. */
  indent?: number;
  panic?: { message: string; trace: string[] };
}

const PACKAGE = /^(ok|FAIL)\s+(\S+)\s+(?:[\d.]+s|\(cached\)|\[([^\]]+)\])/;
const RUN = /^=== (?:RUN|CONT|NAME|PAUSE)\s+(\S+)/;
const RESULT = /^\s*--- (PASS|FAIL|SKIP): (\S+) \(/;
const MESSAGE = /^(\s+)(\S+\.go):(\d+): (.*)$/;
const BUILD_HEADER = /^# (\S+)/;
const BUILD_ERROR = /^(\S+\.go):(\d+):(\d+): (.*)$/;

export const goTestParser: OutputParser = {
  runner: 'go-test',
  detect: (o) => new RegExp(RESULT.source, 'm').test(o) || new RegExp(PACKAGE.source, 'm').test(o),
  parse(output, ctx) {
    const state = new GoRun(ctx);
    for (const line of output.split('\n')) state.feed(line);
    return state.report(/^=== RUN /m.test(output));
  },
};

class GoRun {
  private chunk = new Map<string, GoTest>();
  private current: string | undefined;
  private building: string | undefined;
  /** Compiler messages under each "# package" header, in order. */
  private readonly builds: { pkg: string; errors: TestFailure[] }[] = [];
  private readonly done: { name: string; test: GoTest; dir: string; pkg: string }[] = [];
  private readonly packages = { ok: 0, failed: 0 };
  /** Packages whose tests ran (not "[build failed]" or "[setup failed]"). */
  private ran = 0;
  private readonly buildFailed: string[] = [];

  constructor(private readonly ctx: ParseContext) {}

  feed(line: string): void {
    const pkg = PACKAGE.exec(line);
    if (pkg) return this.endPackage(pkg[1] === 'ok', pkg[2]!, pkg[3]);
    if (this.building !== undefined && this.buildLine(line)) return;
    this.building = undefined;
    const header = BUILD_HEADER.exec(line);
    if (header) {
      this.building = header[1]!;
      this.builds.push({ pkg: header[1]!, errors: [] });
      return;
    }
    const run = RUN.exec(line);
    const result = RESULT.exec(line);
    if (run) this.current = run[1];
    else if (result) {
      this.test(result[2]!).status = result[1] as Status;
      this.current = result[2];
    } else if (this.current !== undefined) this.testLine(this.test(this.current), line);
  }

  report(verbose: boolean): TestReport {
    // A parent fails when a subtest fails: count and report the leaves only.
    // Per package: two packages may each have a test of the same name, one with subtests.
    const parents = new Set(this.done.flatMap((d) => d.name.split('/').map((_, i, parts) => `${d.pkg} ${parts.slice(0, i).join('/')}`)));
    const leaves = this.done.filter((d) => !parents.has(`${d.pkg} ${d.name}`));
    const count = (s: Status) => leaves.filter((d) => d.test.status === s).length;
    const failures = leaves.filter((d) => d.test.status === 'FAIL').map((d) => failureOf(d.name, d.test, d.dir, this.ctx.root));
    const report: TestReport = {
      runner: 'go-test',
      failed: count('FAIL'),
      skipped: count('SKIP'),
      failures: [...this.buildErrors(), ...failures],
    };
    // With -v go lists every test; when no package ran, none passed, -v or not.
    if (verbose || this.ran === 0) report.passed = count('PASS');
    if (!verbose) report.packages = this.packages;
    return report;
  }

  /** One load error per package that did not compile, with the packages it stopped. */
  private buildErrors(): TestFailure[] {
    return this.builds
      .filter((b) => b.errors.length)
      .map((b, _, all) => {
        const [first, ...rest] = b.errors;
        const also = rest.map((e) => `${e.file}:${e.line}:${e.column}: ${e.message}`);
        // One package did not compile: every "[build failed]" is its doing. Of several, each stops itself.
        const stopped = all.length === 1 ? this.buildFailed : this.buildFailed.filter((p) => p === b.pkg);
        const failure: TestFailure = { ...first!, message: [first!.message, ...also].join('\n') };
        return stopped.length ? { ...failure, stopped: [...stopped] } : failure;
      });
  }

  private test(name: string): GoTest {
    let t = this.chunk.get(name);
    if (!t) this.chunk.set(name, (t = { messages: [] }));
    return t;
  }

  private testLine(t: GoTest, line: string): void {
    if (t.panic) {
      t.panic.trace.push(line);
      return;
    }
    const panic = /^panic: (.*?)(?: \[recovered\])?$/.exec(line);
    const msg = MESSAGE.exec(line);
    if (panic) t.panic = { message: `panic: ${panic[1]}`, trace: [] };
    else if (msg) {
      if (!t.file) [t.file, t.line] = [msg[2], Number(msg[3])];
      t.indent = msg[1]!.length;
      t.messages.push(msg[4]!);
    } else if (t.indent !== undefined && line.startsWith(' '.repeat(t.indent + 1)) && !/^\s*(?:---|===) /.test(line)) {
      t.messages.push(line.slice(t.indent + 4));
    } else t.indent = undefined;
  }

  /** A compiler message under "# package"; false when the line is not one. */
  private buildLine(line: string): boolean {
    const m = BUILD_ERROR.exec(line);
    const errors = this.builds[this.builds.length - 1]!.errors;
    const last = errors[errors.length - 1];
    if (m) {
      errors.push({
        kind: 'load_error',
        name: this.building!,
        file: relativeTo(m[1]!, this.ctx.root),
        line: Number(m[2]),
        column: Number(m[3]),
        message: m[4]!,
      });
      return true;
    }
    if (last && /^\t/.test(line)) {
      last.message += `\n${line.slice(1)}`;
      return true;
    }
    return false;
  }

  private endPackage(ok: boolean, pkg: string, bracket: string | undefined): void {
    this.packages[ok ? 'ok' : 'failed']++;
    if (bracket === 'build failed') this.buildFailed.push(pkg);
    else if (bracket === undefined) this.ran++;
    const dir = packageDir(pkg, this.ctx.goModule);
    for (const [name, test] of this.chunk) this.done.push({ name, test, dir, pkg });
    this.chunk = new Map();
    this.current = undefined;
    this.building = undefined;
  }
}

/** The package's folder inside the module ("" for the module's root package), when known. */
function packageDir(pkg: string, module: string | undefined): string {
  if (!module) return '';
  if (pkg === module) return '';
  return pkg.startsWith(`${module}/`) ? `${pkg.slice(module.length + 1)}/` : '';
}

function failureOf(name: string, t: GoTest, dir: string, root: string): TestFailure {
  if (t.panic) {
    const at = firstWorkspaceFrame(
      t.panic.trace.filter((l) => /^\t/.test(l)),
      root,
    );
    return { kind: 'test_failure', name, ...at, message: [...t.messages, t.panic.message].join('\n') };
  }
  const where = t.file ? { file: `${dir}${t.file}`, line: t.line } : {};
  // t.Errorf("\ngot …") prints an empty first line: the message is what follows it.
  return { kind: 'test_failure', name, ...where, message: t.messages.join('\n').replace(/^\s*\n/, '') || 'failed' };
}
