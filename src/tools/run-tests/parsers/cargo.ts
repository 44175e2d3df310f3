// cargo test: "test result: FAILED. 1 passed; 2 failed; 1 ignored" per test binary (summed);
// "---- name stdout ----" blocks with "thread 'name' (id) panicked at src/lib.rs:10:9:" and the
// message (older Rust: "panicked at 'message', src/lib.rs:10:9"). A build failure is rustc's
// "error[E0308]: …" with "--> file:line:col" and a code frame, then "error: could not compile
// `crate` (target)": one load error per located compiler error.
import { firstWorkspaceFrame, inWorkspace, relativeTo, type SourceLocation } from '../locate.js';
import { dedent, tidy } from '../message-text.js';
import type { OutputParser, TestFailure } from '../test-report.js';

const COULD_NOT_COMPILE = /^error: could not compile `([^`]+)`(?: \(([^)]+)\))?/m;
const COMPILER_ERROR = /^(error(?:\[E\d+\])?): (.*)$/;

export const cargoParser: OutputParser = {
  runner: 'cargo-test',
  detect: (o) => /^test result: \w+\. \d+ passed/m.test(o) || COULD_NOT_COMPILE.test(o),
  parse(output, { root }) {
    const sum = (re: RegExp) => [...output.matchAll(re)].reduce((s, m) => s + Number(m[1]), 0);
    const failures = [...compileErrors(output, root), ...panics(output, root)];
    return {
      runner: 'cargo-test',
      passed: sum(/^test result: \w+\. (\d+) passed/gm),
      failed: sum(/^test result: .*?; (\d+) failed/gm),
      skipped: sum(/^test result: .*?; (\d+) ignored/gm),
      failures,
    };
  },
};

function panics(output: string, root: string): TestFailure[] {
  const failures: TestFailure[] = [];
  for (const block of output.split(/^---- /m).slice(1)) {
    const name = /^(\S+) stdout ----/.exec(block)?.[1];
    if (!name) continue;
    const body = block.split(/^(?:failures:|---- )/m)[0]!;
    const panic = panicOf(body);
    if (!panic) {
      failures.push({ kind: 'test_failure', name, message: 'failed' });
      continue;
    }
    const frames = (/^stack backtrace:\n([\s\S]*)/m.exec(body)?.[1] ?? '').split('\n').filter((l) => /^\s+at /.test(l));
    const at = { ...panic.at, file: relativeTo(panic.at.file, root) };
    const where = inWorkspace(at.file, root) ? at : (firstWorkspaceFrame(frames, root) ?? at);
    failures.push({ kind: 'test_failure', name, ...where, message: panic.message || 'panicked' });
  }
  return failures;
}

/** The panic's location and message, in the current format or the one before Rust 1.73. */
function panicOf(body: string): { at: SourceLocation; message: string } | undefined {
  const lines = body.split('\n');
  const at = lines.findIndex((l) => /^thread '.*'(?: \(\d+\))? panicked at /.test(l));
  const modern = /panicked at (\S+?):(\d+):(\d+):$/.exec(lines[at] ?? '');
  if (modern) {
    const end = lines.findIndex((l, i) => i > at && (/^(?:note: |stack backtrace:)/.test(l) || l === ''));
    const message = tidy(lines.slice(at + 1, end < 0 ? lines.length : end));
    return { at: { file: modern[1]!, line: Number(modern[2]), column: Number(modern[3]) }, message };
  }
  const legacy = /^thread '.*' panicked at '([\s\S]*?)', (\S+?):(\d+):(\d+)$/m.exec(body);
  if (!legacy) return undefined;
  return { at: { file: legacy[2]!, line: Number(legacy[3]), column: Number(legacy[4]) }, message: tidy(legacy[1]!.split('\n')) };
}

function compileErrors(output: string, root: string): TestFailure[] {
  const target = COULD_NOT_COMPILE.exec(output);
  const name = target ? `${target[1]}${target[2] ? ` (${target[2]})` : ''}` : 'build';
  const lines = output.split('\n');
  const errors: TestFailure[] = [];
  for (let i = 0; i < lines.length; i++) {
    const head = COMPILER_ERROR.exec(lines[i]!);
    const arrow = /^\s*--> (\S+?):(\d+):(\d+)\s*$/.exec(lines[i + 1] ?? '');
    if (!head || !arrow) continue;
    const frame: string[] = [];
    for (let j = i + 2; j < lines.length && lines[j]!.trim() !== ''; j++) frame.push(lines[j]!);
    errors.push({
      kind: 'load_error',
      name,
      file: relativeTo(arrow[1]!, root),
      line: Number(arrow[2]),
      column: Number(arrow[3]),
      message: `${head[1]}: ${head[2]}`,
      context: tidy(dedent(frame)),
    });
  }
  if (errors.length === 0 && target) errors.push({ kind: 'load_error', name, message: target[0] });
  return errors;
}
