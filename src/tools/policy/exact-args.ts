// Arguments of the build tools and task runners whose option parsers take each word whole: Maven's
// `-pl`, CTest's `-VV`, Gradle's `--tests`, make's `-j4` are single options, never clusters. Each
// word is a listed spelling, `--name=value`, a listed prefix with its value attached (`-DskipX=1`,
// `-j4`), or an operand; anything else stops the reading with NotReadOnly. Values that name files
// come back as paths, read or written, for the policy to check against the workspace.
import type { CommandPath } from './command-class.js';
import { notReadOnly, wordText } from './program-args.js';
import { hasGlob, startsWithTilde, type Word } from './shell-word.js';

/** flag: no value; text: a value naming no file; read/write: a file or folder it reads or writes. */
type Kind = 'flag' | 'text' | 'read' | 'write';

export interface ExactTable {
  readonly spellings: ReadonlyMap<string, Kind>;
  /** Spellings that take their value attached (`-D`, `-j`), and its kind. */
  readonly prefixes: ReadonlyMap<string, Kind>;
}

/**
 * A table from compact definitions: `-o --offline, -pl --projects =text, -B =write, -D* =text`
 * (a trailing `*` marks a prefix that takes its value attached).
 */
export function exactOptions(definitions: string): ExactTable {
  const spellings = new Map<string, Kind>();
  const prefixes = new Map<string, Kind>();
  const kinds: Record<string, Kind> = { '=text': 'text', '=read': 'read', '=write': 'write' };
  for (const def of definitions.split(/[,\n]/).map((d) => d.trim())) {
    if (!def) continue;
    const parts = def.split(/ +/);
    const kind = kinds[parts[parts.length - 1]!] ?? 'flag';
    for (const name of kind === 'flag' ? parts : parts.slice(0, -1)) {
      if (name.endsWith('*')) prefixes.set(name.slice(0, -1), kind);
      else spellings.set(name, kind);
    }
  }
  return { spellings, prefixes };
}

export interface ExactArgs {
  /** Options by the spelling written, with their values. */
  options: { name: string; value?: string }[];
  operands: string[];
  paths: CommandPath[];
  /** With `untilOperand`: the words from the first operand on, unread. */
  rest: readonly Word[];
}

/**
 * Reads `args` against `table`; operands may come anywhere (`--` is no option any of these tools
 * needs). `untilOperand`: stops at the first operand (a package manager's script name, after which
 * every word is the script's).
 */
export function parseExact(args: readonly Word[], table: ExactTable, untilOperand = false): ExactArgs {
  const out: ExactArgs = { options: [], operands: [], paths: [], rest: [] };
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    if (hasGlob(w)) notReadOnly(`${wordText(w)} has a glob bash would expand`);
    if (startsWithTilde(w)) notReadOnly(`${wordText(w)} is expanded to a home folder`);
    const text = wordText(w);
    if (!text.startsWith('-') || text === '-') {
      if (untilOperand) {
        out.rest = args.slice(i);
        return out;
      }
      out.operands.push(text);
      continue;
    }
    const kind = table.spellings.get(text);
    if (kind === 'flag') out.options.push({ name: text });
    else if (kind) i = valued(out, text, kind, args[i + 1], i + 1);
    else attached(out, text, table);
  }
  return out;
}

function valued(out: ExactArgs, name: string, kind: Kind, next: Word | undefined, at: number): number {
  if (!next) notReadOnly(`${name} needs a value`);
  const value = wordText(next);
  if (hasGlob(next) || startsWithTilde(next)) notReadOnly(`the value of ${name} is expanded by bash`);
  if (value.startsWith('-')) notReadOnly(`the value of ${name} starts with -`);
  record(out, name, kind, value);
  return at;
}

function attached(out: ExactArgs, text: string, table: ExactTable): void {
  const eq = text.indexOf('=');
  const long = eq > 0 && text.startsWith('--') ? table.spellings.get(text.slice(0, eq)) : undefined;
  if (long && long !== 'flag') return record(out, text.slice(0, eq), long, text.slice(eq + 1));
  for (const [prefix, kind] of table.prefixes)
    if (text.startsWith(prefix) && text.length > prefix.length) return record(out, prefix, kind, text.slice(prefix.length));
  notReadOnly(`${text} is not an option known to be safe here`);
}

function record(out: ExactArgs, name: string, kind: Kind, value: string): void {
  out.options.push({ name, value });
  if (kind === 'read' || kind === 'write') out.paths.push({ path: value.startsWith('~') ? `./${value}` : value, access: kind });
}

/** Whether any of the spellings was given. */
export function given(a: ExactArgs, ...names: string[]): boolean {
  return a.options.some((o) => names.includes(o.name));
}
