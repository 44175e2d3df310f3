// A program's own option list, read from what it prints for --help (or `git CMD -h`) and from
// its man page where one is installed: every option it documents, and how it takes its value —
// none, a separate word (`-n NUM`, `--lines=NUM` under getopt), attached only (`-U<n>`), or
// optional (`--color[=WHEN]`, `-M[<n>]`).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gunzipSync } from 'node:zlib';

/**
 * `ambiguous`: a man page's `-X<v>`, which in git's pages means either a value attached only
 * (`-U<n>`) or a required one that may also come as the next word (`-l<num>`).
 */
export type ValueForm = 'none' | 'separate' | 'equals' | 'attached' | 'optional' | 'ambiguous' | 'unknown';

interface DocumentedOption {
  spelling: string;
  forms: Set<ValueForm>;
  /** From an option list the program's parser prints (--help, git's -h), which outranks prose in a man page. */
  precise: boolean;
}

/** Where an option list comes from: a help command (precise), or a man page. */
export interface DocSource {
  argv?: readonly string[];
  man?: string;
  /** Only the part of the text from the line this matches on (a section of a help page). */
  from?: RegExp;
  /** The list shows spellings without values (mocha), or values as `type:` lines below only (tsc --all). */
  values?: 'unknown' | 'typed-below';
}

export interface ProgramDocs {
  /** Where the list came from: "--help", "man". */
  sources: string[];
  options: Map<string, DocumentedOption>;
}

const MAN_DIRS = ['/usr/share/man/man1', '/usr/share/man/man8'];
const ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C', COLUMNS: '200', MANWIDTH: '200', HOME: '/nonexistent' };

/** The help text a program prints (stdout and stderr: git prints -h usage to stdout, some tools to stderr). */
function helpText(argv: readonly string[]): string | undefined {
  const r = spawnSync(argv[0]!, argv.slice(1), { encoding: 'utf8', env: ENV, timeout: 20_000, stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.error) return undefined;
  const text = `${r.stdout ?? ''}\n${r.stderr ?? ''}`;
  return text.trim() ? text : undefined;
}

/** A man page as plain text (roff markup removed), or undefined when none is installed. */
function manText(page: string): string | undefined {
  for (const dir of MAN_DIRS) {
    for (const file of [`${dir}/${page}.1.gz`, `${dir}/${page}.8.gz`, `${dir}/${page}.1`]) {
      if (!fs.existsSync(file)) continue;
      const raw = file.endsWith('.gz') ? gunzipSync(fs.readFileSync(file)).toString('utf8') : fs.readFileSync(file, 'utf8');
      return stripRoff(raw);
    }
  }
  return undefined;
}

function stripRoff(text: string): string {
  return text
    .replace(/\\f[BIRP]|\\f\[[A-Z]*\]|\\fC[BIRW]?/g, '')
    .replace(/\\-/g, '-')
    .replace(/\\\(aq/g, "'")
    .replace(/\\\(dq/g, '"')
    .replace(/\\\(em|\\\(en/g, '-')
    .replace(/\\&|\\:|\\%/g, '')
    .replace(/\\e/g, '\\')
    .replace(/\\ /g, ' ')
    .split('\n')
    .map((l) => l.replace(/^\.(?:B|I|BI|BR|IR|RB|RI|IB|TP|PP|IP|sp|HP|LP|TQ|RS|RE|nf|fi|br|in|ti|SS|SH)\b\s*/, ''))
    .join('\n');
}

/**
 * The options a text documents: from each line whose first word is an option (a definition
 * line: `  -n, --lines=NUM   output…`, or a man page's `-U<n>, --unified=<n>`), every spelling
 * on it and how it takes its value. Prose mentions are not definitions and are skipped.
 */
function documentedOptions(
  text: string,
  how: { precise: boolean; shortSharesOptional?: boolean; values?: DocSource['values'] },
  into: Map<string, DocumentedOption> = new Map(),
): Map<string, DocumentedOption> {
  const lines = text.split('\n');
  for (const [n, raw] of lines.entries()) {
    // A help page indents its definitions a little and its prose more (ripgrep: 4 and 12).
    if (how.precise && /^ {9,}/.test(raw.replace(/\t/g, '        '))) continue;
    // stat prints `-c  --format=FORMAT`: a short and its long spelling two spaces apart.
    const line = raw
      .replace(/\t/g, '  ')
      .trimStart()
      .replace(/^(-[A-Za-z0-9]) {2,}(--)/, '$1, $2');
    if (!/^--?[A-Za-z0-9<]/.test(line)) continue;
    // The definition ends where the description starts: two spaces.
    const head = line.split(/ {2,}/)[0]!;
    const specs = head.split(/,\s*|\s+\|\s+/).flatMap((spec) => parseSpec(spec.trim(), how.precise));
    const typed = how.values === 'unknown' ? 'unknown' : declaredType(line, lines.slice(n + 1, n + 4));
    const fallback = how.values === 'typed-below' ? 'unknown' : undefined;
    for (const p of specs) add(p.spelling, typed ?? fallback ?? formOnLine(p, specs, how.shortSharesOptional === true), how.precise, into);
  }
  return into;
}

/**
 * A value type printed apart from the spelling: yargs ends the line with `[string]`/`[boolean]`,
 * tsc --all writes `type: string` on a line below.
 */
function declaredType(line: string, below: readonly string[]): ValueForm | undefined {
  const yargs = /\[(string|number|array|boolean|count)\]/.exec(line)?.[1];
  const tsc = below.map((l) => /^\s*type:\s*(\w+)/.exec(l)?.[1]).find((t) => t !== undefined);
  const type = yargs ?? tsc;
  if (type === undefined) return undefined;
  return type === 'boolean' || type === 'count' ? 'none' : 'separate';
}

type Spec = { spelling: string; form: ValueForm; placeholder: boolean };

/**
 * `-I, --ignore=PATTERN`: a lone short spelling shares the placeholder value of the one long
 * spelling on its line (not a fixed word: `-p, --indicator-style=slash` is a flag; and an
 * optional value only where the parser gives short options one, as git's does).
 */
function formOnLine(p: Spec, specs: readonly Spec[], shortSharesOptional: boolean): ValueForm {
  const longs = specs.filter((x) => x.spelling.startsWith('--'));
  if (p.form !== 'none' || p.spelling.startsWith('--') || specs.length !== 2 || longs.length !== 1) return p.form;
  const long = longs[0]!;
  if (!long.placeholder) return p.form;
  if (long.form === 'equals' || long.form === 'ambiguous') return 'separate';
  if (long.form === 'optional') return shortSharesOptional ? 'optional' : p.form;
  return long.form;
}

function parseSpec(spec: string, precise: boolean): { spelling: string; form: ValueForm; placeholder: boolean }[] {
  // A short option is one letter; what follows it without a space is an attached value (`-U<n>`, `-M90`).
  const m = /^(--[A-Za-z0-9][A-Za-z0-9_-]*|-[A-Za-z0-9])(.*)$/.exec(spec);
  // `-e/--regexp` is prose naming two spellings.
  if (!m || m[2]!.startsWith('/')) return [];
  const form = formOf(m[1]!, m[2]!);
  const placeholder = /<|\b[A-Z][A-Z_]*\b/.test(m[2]!) || (precise && form === 'optional');
  // In a man page (git's above all) `-X<v>` and `--x=<v>` do not say whether the value may come as the next word.
  const vague = !precise && (form === 'attached' || form === 'equals');
  return [{ spelling: m[1]!, form: vague ? 'ambiguous' : form, placeholder }];
}

/** A precise source replaces what prose said about the option; prose never overrides one. */
function add(spelling: string, form: ValueForm, precise: boolean, into: Map<string, DocumentedOption>): void {
  const known = into.get(spelling);
  if (!known || (precise && !known.precise)) into.set(spelling, { spelling, forms: new Set([form]), precise });
  else if (precise === known.precise) known.forms.add(form);
}

function formOf(spelling: string, rest: string): ValueForm {
  if (rest === '') return 'none';
  if (rest.startsWith('[=') || rest.startsWith('[')) return rest.startsWith('[=]') ? 'separate' : 'optional';
  if (rest.startsWith('=')) return 'equals';
  // One word after the option is its value (`-o filename`); more are a description written after a single space.
  if (/^\s+\S+$/.test(rest)) return 'separate';
  if (/^\s+(<[^>]+>|[A-Z][A-Z_]*\b|#)/.test(rest)) return 'separate';
  if (/^\s/.test(rest)) return 'none';
  if (/^\s*$/.test(rest)) return 'none';
  return spelling.startsWith('--') ? 'none' : 'attached';
}

export function readDocs(sources: readonly DocSource[]): ProgramDocs {
  const docs: ProgramDocs = { sources: [], options: new Map() };
  for (const source of sources) {
    const whole = source.argv ? helpText(source.argv) : source.man ? manText(source.man) : undefined;
    const text =
      whole && source.from
        ? whole
            .split('\n')
            .slice(
              Math.max(
                0,
                whole.split('\n').findIndex((l) => source.from!.test(l)),
              ),
            )
            .join('\n')
        : whole;
    if (!text) continue;
    docs.sources.push(source.argv ? source.argv.map((a) => path.basename(a)).join(' ') : `man ${source.man}`);
    const precise = source.argv !== undefined;
    documentedOptions(text, { precise, shortSharesOptional: source.argv?.[0] === 'git', values: source.values }, docs.options);
  }
  return docs;
}
