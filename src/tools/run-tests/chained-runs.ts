// A test script that chains several runs (`node --test a && node --test b`, `mocha unit; mocha
// e2e`, `jest && vitest run`) prints one run after another; each runner's parser reads one run.
// The output is cut after each line that ends a run — node:test's TAP duration line, jest's "Ran
// all test suites", vitest's Duration, pytest's final "in 1.2s" line; after the list of failing
// tests node:test's spec reporter prints below its counts; for mocha (whose failures follow its
// counts) after the last failure's stack — so every run is parsed on its own and their counts
// add up.

/** Offsets just past the end of each run the output holds, in order, without the output's own end. */
function runEnds(output: string): number[] {
  const ends = new Set<number>();
  for (const re of RUN_END) for (const m of output.matchAll(re)) ends.add(lineEnd(output, m.index + m[0].length));
  for (const end of [...mochaRunEnds(output), ...nodeSpecRunEnds(output)]) ends.add(end);
  return [...ends].filter((e) => output.slice(e).trim() !== '').sort((a, b) => a - b);
}

/** The output cut into runs (one piece when it holds one run). */
export function splitRuns(output: string): string[] {
  const pieces: string[] = [];
  let from = 0;
  for (const end of runEnds(output)) {
    pieces.push(output.slice(from, end));
    from = end;
  }
  pieces.push(output.slice(from));
  return pieces.filter((p) => p.trim() !== '');
}

const RUN_END: readonly RegExp[] = [
  // node:test's TAP reporter: the counts come last.
  /^# duration_ms [\d.]+$/gm,
  /^Ran all test suites\b.*$/gm,
  /^\s*Duration\s+[\d.]+m?s\b.*$/gm,
  /^=+ .*\bin [\d.]+s(?: \([\d:]+\))? =+$/gm,
];

function lineEnd(output: string, at: number): number {
  const nl = output.indexOf('\n', at);
  return nl === -1 ? output.length : nl + 1;
}

/**
 * mocha prints "N passing (Xms)", the pending and failing counts, then each failure as "  K) title"
 * with its message (whose lines need not be indented) and stack: its run ends after the stack of
 * its last failure, the K-th (or after the counts when nothing failed).
 */
function mochaRunEnds(output: string): number[] {
  const ends: number[] = [];
  for (const m of output.matchAll(/^ {2}\d+ passing \(\d+m?s\)\n(?: {2}\d+ pending\n)?(?: {2}(\d+) failing\n)?/gm)) {
    const after = m.index + m[0].length;
    const failing = Number(m[1] ?? 0);
    if (failing === 0) {
      ends.push(after);
      continue;
    }
    const last = new RegExp(`^ {2}${failing}\\) `, 'm').exec(output.slice(after));
    if (!last) continue;
    const from = after + last.index;
    const stack = /(?:^ {4,}at .*\n?)+/m.exec(output.slice(from));
    if (stack) ends.push(from + stack.index + stack[0].length);
  }
  return ends;
}

/**
 * node:test's spec reporter: the counts, `ℹ duration_ms`, then (when a test failed) "✖ failing
 * tests:" and each failure again — "test at FILE:LINE:COL", "✖ name (time)", its error indented.
 */
function nodeSpecRunEnds(output: string): number[] {
  const ends: number[] = [];
  for (const m of output.matchAll(/^ℹ duration_ms [\d.]+$/gm)) {
    let at = lineEnd(output, m.index + m[0].length);
    const rest = output.slice(at);
    const listed = /^\n?✖ failing tests:\n/.exec(rest);
    if (listed) {
      at += listed[0].length;
      let previous = '';
      for (;;) {
        const next = lineEnd(output, at);
        const line = output.slice(at, next).replace(/\n$/, '');
        const inList =
          line.trim() === '' ||
          /^\s/.test(line) ||
          line.startsWith('test at ') ||
          (line.startsWith('✖ ') && previous.startsWith('test at '));
        if (!inList || next === at) break;
        if (line.trim() !== '') previous = line;
        at = next;
      }
    }
    ends.push(at);
  }
  return ends;
}
