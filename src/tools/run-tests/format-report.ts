// What the model sees of a test run: the command and exit, one summary line, each load error and
// failure with its location and message, and the end of the raw output. Everything fits the
// tool's character budget: messages share what the fixed parts leave, the short ones whole and
// the long ones cut by characters (never by lines, so a diff that fits survives whole) with a
// note of how much was cut; the raw excerpt gets what remains.
import { loadErrorCount, type TestFailure, type TestReport } from './test-report.js';

const DETAILED_FAILURES = 15;
const LISTED_FAILURES = 50;
const EXCERPT_CHARS = 1500;
/** The raw end of the output is kept at least this long when the report has room for nothing else. */
const EXCERPT_MIN_CHARS = 400;
/** Separators and notes the arithmetic below does not count exactly. */
const SLACK_CHARS = 120;
const INDENT = '   ';

export function summaryLine(r: TestReport): string {
  const parts = [...(r.passed !== undefined ? [`${r.passed} passed`] : []), `${r.failed} failed`];
  if (r.skipped) parts.push(`${r.skipped} skipped`);
  const loadErrors = loadErrorCount(r.failures);
  if (loadErrors) parts.push(`${loadErrors} load error${loadErrors === 1 ? '' : 's'}`);
  let line = parts.join(', ');
  if (r.passed === undefined) line += `, passing tests not listed${r.runner === 'go-test' ? ' (go test lists them with -v)' : ''}`;
  if (r.packages) line += `; packages: ${r.packages.ok} ok, ${r.packages.failed} failed`;
  if (loadErrors && !r.passed && !r.failed && !r.skipped) line += ' — no tests ran';
  if (r.runs && r.runs.length > 1) line += `; ${r.runs.length} runs: ${r.runs.map(runText).join('; ')}`;
  return line;
}

/** One run of several: its package (a task runner's), counts and runner. */
function runText(run: NonNullable<TestReport['runs']>[number]): string {
  const counts = [...(run.passed !== undefined ? [`${run.passed} passed`] : []), `${run.failed} failed`];
  if (run.skipped) counts.push(`${run.skipped} skipped`);
  return `${run.package ? `${run.package}: ` : ''}${counts.join(', ')} (${run.runner})`;
}

/** The whole report, within maxChars. */
export function formatReport(header: string, r: TestReport, output: string, maxChars: number): string {
  const head = `${header}\n\n${summaryLine(r)} (${r.runner})`;
  const detailed = r.failures.slice(0, DETAILED_FAILURES);
  const title = titleFor(r.runner);
  const titles = detailed.map((f, i) => `${i + 1}. ${title(f)}`);
  const rest = restOf(r.failures, title);
  const fixed = head.length + titles.join('\n').length + rest.length + heading(r.failures).length + 'Output (end):'.length + SLACK_CHARS;
  const bodies = detailed.map(body);
  const excerptFloor = Math.min(EXCERPT_MIN_CHARS, output.trimEnd().length);
  const shares = fairShares(
    bodies.map((b) => b.length + 1),
    maxChars - fixed - excerptFloor,
  );
  const items = detailed.map((_, i) => [titles[i], cut(bodies[i]!, shares[i]! - 1)].filter(Boolean).join('\n'));
  const failures = items.length ? [heading(r.failures), ...items, ...(rest ? [rest] : [])].join('\n') : '';
  const used = head.length + failures.length + SLACK_CHARS;
  const tail = excerpt(output, Math.max(excerptFloor, Math.min(EXCERPT_CHARS, maxChars - used)));
  return [head, failures, `Output (end):\n${tail}`].filter(Boolean).join('\n\n');
}

function heading(failures: readonly TestFailure[]): string {
  const loadErrors = loadErrorCount(failures);
  if (loadErrors === 0) return 'Failures:';
  return loadErrors === failures.length ? 'Load errors:' : 'Load errors and failures:';
}

/** What a load error stops from loading: Go builds packages, unittest imports modules, the rest load files. */
function stoppedNoun(runner: TestReport['runner']): string {
  if (runner === 'go-test') return 'test packages';
  return runner === 'unittest' ? 'test modules' : 'test files';
}

const titleFor = (runner: TestReport['runner']) => (f: TestFailure) => title(f, stoppedNoun(runner));

function title(f: TestFailure, stoppedNoun: string): string {
  const pkg = f.package ? `[${f.package}] ` : '';
  const at = f.file ? `${f.file}${f.line ? `:${f.line}${f.column ? `:${f.column}` : ''}` : ''}` : '';
  if (f.kind === 'load_error' && f.stopped)
    return `[load error] ${pkg}${at || 'the runner printed no location'} — ${stoppedText(f.stopped, stoppedNoun)}`;
  if (f.kind === 'load_error') return `[load error] ${pkg}${f.name === f.file ? at : `${f.name}${at ? ` — ${at}` : ''}`}`;
  return `${pkg}${f.name}${at ? ` — ${at}` : ''}`;
}

/** Test files a load error stopped: counted, and named while few. */
const STOPPED_NAMED = 5;

function stoppedText(files: readonly string[], noun: string): string {
  const named = files.slice(0, STOPPED_NAMED).join(', ');
  const more = files.length > STOPPED_NAMED ? `, and ${files.length - STOPPED_NAMED} more` : '';
  return `stopped ${files.length} ${noun} from loading (${named}${more})`;
}

function body(f: TestFailure): string {
  const text = f.context ? `${f.message}\n${f.context}` : f.message;
  return text
    ? text
        .split('\n')
        .map((l) => (l ? INDENT + l : l))
        .join('\n')
    : '';
}

/** Failures past the detailed ones: names and locations only. */
function restOf(failures: readonly TestFailure[], title: (f: TestFailure) => string): string {
  const listed = failures.slice(DETAILED_FAILURES, LISTED_FAILURES);
  const out = listed.length ? [`Also failed: ${listed.map(title).join('; ')}`] : [];
  if (failures.length > LISTED_FAILURES) out.push(`… and ${failures.length - LISTED_FAILURES} more failures.`);
  return out.join('\n');
}

/** Splits budget among sizes: each gets what it needs up to an equal share of what is left. */
export function fairShares(sizes: readonly number[], budget: number): number[] {
  const shares = new Array<number>(sizes.length).fill(0);
  const order = sizes.map((_, i) => i).sort((a, b) => sizes[a]! - sizes[b]!);
  let left = Math.max(0, budget);
  order.forEach((i, k) => {
    const give = Math.min(sizes[i]!, Math.floor(left / (order.length - k)));
    shares[i] = give;
    left -= give;
  });
  return shares;
}

/** The text within max characters; when cut, at a line end if one is near, saying how much went. */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const note = (n: number) => `\n${INDENT}[… ${n} more characters not shown]`;
  const room = Math.max(0, max - note(text.length).length);
  const lineEnd = text.lastIndexOf('\n', room);
  const end = lineEnd >= room * 0.6 ? lineEnd : room;
  return text.slice(0, end) + note(text.length - end);
}

/** The end of the output, where runners print their summaries, cut at a line start. */
export function excerpt(output: string, maxChars = EXCERPT_CHARS): string {
  const trimmed = output.trimEnd();
  if (trimmed.length <= maxChars) return trimmed;
  const lineStart = trimmed.indexOf('\n', trimmed.length - maxChars) + 1;
  const from = lineStart > 0 ? lineStart : trimmed.length - maxChars;
  return `[… ${from} earlier characters not shown …]\n${trimmed.slice(from)}`;
}
