// A build that failed before any test ran: gcc's and clang's "path:LINE:COL: error: message"
// (the source line and caret after it kept as context), javac's "Path.java:LINE: error: message"
// and Maven's "[ERROR] /path/X.java:[LINE,COL] message". Each error is a load error at its place,
// in output order (the first is the one that matters).
import { relativeTo } from '../locate.js';
import { tidy } from '../message-text.js';
import type { OutputParser, TestFailure } from '../test-report.js';

const GCC = /^(\S+?\.(?:c|cc|cpp|cxx|c\+\+|h|hh|hpp|hxx|m|mm|cu)):(\d+):(\d+): (?:fatal )?error: (.*)$/;
const JAVAC = /^(\S+?\.(?:java|kt|scala)):(\d+): error: (.*)$/;
const MAVEN = /^\[ERROR\] (\S+?\.(?:java|kt|scala)):\[(\d+),(\d+)\] (.*)$/;
/** Errors kept, at most: after the first few a compiler's errors mostly follow from them. */
const MAX_ERRORS = 20;

export const compilerParser: OutputParser = {
  runner: 'compiler',
  detect: (o) => o.split('\n').some((l) => GCC.test(l) || JAVAC.test(l) || MAVEN.test(l)),
  parse(output, { root }) {
    const lines = output.split('\n');
    const failures: TestFailure[] = [];
    const seen = new Set<string>();
    lines.forEach((line, i) => {
      const m = GCC.exec(line) ?? MAVEN.exec(line);
      const j = m ? undefined : JAVAC.exec(line);
      if ((!m && !j) || failures.length >= MAX_ERRORS) return;
      const [file, lineNo, column, message] = m ? [m[1]!, m[2]!, m[3], m[4]!] : [j![1]!, j![2]!, undefined, j![3]!];
      const rel = relativeTo(file, root);
      const key = `${rel}:${lineNo}:${column ?? ''}:${message}`;
      if (seen.has(key)) return;
      seen.add(key);
      const context = tidy(sourceContext(lines, i + 1));
      failures.push({
        kind: 'load_error',
        name: `compiler: ${rel}`,
        file: rel,
        line: Number(lineNo),
        ...(column ? { column: Number(column) } : {}),
        message,
        ...(context ? { context } : {}),
      });
    });
    return { runner: 'compiler', passed: 0, failed: 0, skipped: 0, failures };
  },
};

/** The source excerpt a compiler prints under an error: gcc's "  3 | code" and caret lines, javac's code and caret. */
function sourceContext(lines: readonly string[], from: number): string[] {
  const out: string[] = [];
  for (const l of lines.slice(from, from + 6)) {
    if (/^\s*\d*\s*\|/.test(l) || (/^\s+\S/.test(l) && !/^\s+at /.test(l) && out.length < 3 && !/error:|warning:|note:/.test(l)))
      out.push(l);
    else break;
  }
  return out;
}
