// The text of a failure as the runner printed it: whole (a multi-line diff keeps its lines and
// their alignment), without the stack trace, trailing spaces or runs of blank lines. Cutting to
// fit the report happens later, by characters, in format-report.ts.

/** A JS stack frame line ("at f (x.js:1:2)", "at async x.js:1:2"). */
export const JS_FRAME = /^\s*at\s/;

/** Lines with their common indentation removed. */
export function dedent(lines: readonly string[]): string[] {
  const widths = lines.filter((l) => l.trim()).map((l) => /^[ \t]*/.exec(l)![0].length);
  const cut = widths.length ? Math.min(...widths) : 0;
  return lines.map((l) => l.slice(cut));
}

/** Joined lines: right-trimmed, blank runs collapsed, no blank lines at either end. */
export function tidy(lines: readonly string[]): string {
  const out: string[] = [];
  for (const raw of lines) {
    const l = raw.trimEnd();
    if (l === '' && (out.length === 0 || out[out.length - 1] === '')) continue;
    out.push(l);
  }
  while (out.length && out[out.length - 1] === '') out.pop();
  return out.join('\n');
}

/** The lines before the stack trace (frames before any text are skipped). */
function beforeFrames(lines: readonly string[], isFrame: (l: string) => boolean = (l) => JS_FRAME.test(l)): string[] {
  const out: string[] = [];
  for (const l of lines) {
    if (isFrame(l)) {
      if (out.some((x) => x.trim())) break;
      continue;
    }
    out.push(l);
  }
  return out;
}

/** A message block: before the frames, dedented and tidied. */
export function messageText(lines: readonly string[], isFrame?: (l: string) => boolean): string {
  return tidy(dedent(beforeFrames(lines, isFrame)));
}
