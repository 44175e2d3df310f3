// The read-only allowlist checked against the programs themselves: each program's own option
// list (--help, `git CMD -h`, the man page where installed) against the table Keel parses it
// with. A problem is an option the table reads differently from the program (takes the next
// word as a value where the program takes it attached or not at all — how `git diff -U FILE`
// hid a path — or the reverse), an option the table lists that the program does not document,
// or an option the program documents that Keel has not classified: neither in the table nor in
// the reviewed list of options left out on purpose (they ask). A new version of tree or git that
// adds an output option fails here instead of opening a hole.
//
//   node --import=tsx test/support/allowlist-options.ts                   # the report
//   node --import=tsx test/support/allowlist-options.ts --write-unlisted  # re-record what was reviewed (review the diff!)
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FILE_PROGRAMS, TEXT_PROGRAMS } from '../../src/tools/policy/read-only-programs.js';
import { GIT_OPTIONS } from '../../src/tools/policy/git-spec.js';
import type { OptionTable } from '../../src/tools/policy/program-args.js';
import { RUNNER_OPTIONS } from '../../src/tools/policy/test-runners.js';
import { type DocSource, type ProgramDocs, readDocs, type ValueForm } from './option-docs.js';

const ROOT = path.resolve(__dirname, '../..');
const UNLISTED_FILE = path.join(ROOT, 'test/fixtures/allowlist/unlisted-options.json');

export interface CheckedProgram {
  /** As reported: `ls`, `git diff`, `mocha`. */
  name: string;
  table: OptionTable;
  /** Where its option list is read: help commands, man pages. */
  sources: DocSource[];
  /** Whether the program must be installed for the check (test runners are optional). */
  required: boolean;
}

/** git's diff options as its parser prints them: range-diff -h lists the table diff, log and show share. */
const GIT_DIFF_HELP: DocSource = { argv: ['git', 'range-diff', '-h'], from: /^Diff output format options/ };
/** Subcommands whose options are revision and diff options (parsed by hand, not listed by -h). */
const GIT_REVISION_PAGES: Record<string, string[]> = {
  diff: ['git-diff'],
  log: ['git-log'],
  show: ['git-show', 'git-log'],
  whatchanged: ['git-whatchanged', 'git-log'],
  'rev-list': ['git-rev-list'],
  shortlog: ['git-shortlog', 'git-rev-list'],
};

/** Every program of the read-only allowlist, git's subcommands and the test runners installed here. */
export function checkedPrograms(): CheckedProgram[] {
  const out: CheckedProgram[] = [];
  for (const [name, spec] of Object.entries({ ...FILE_PROGRAMS, ...TEXT_PROGRAMS })) {
    if (spec.options) out.push({ name, table: spec.options, sources: [{ argv: [name, '--help'] }, { man: name }], required: true });
  }
  for (const [sub, table] of GIT_OPTIONS) {
    const pages = GIT_REVISION_PAGES[sub];
    const own: DocSource[] = sub === 'shortlog' ? [{ argv: ['git', sub, '-h'] }] : [];
    const sources: DocSource[] = pages
      ? [...own, GIT_DIFF_HELP, ...pages.map((man) => ({ man }))]
      : [{ argv: ['git', sub, '-h'] }, { man: `git-${sub}` }];
    out.push({ name: `git ${sub}`, table, sources, required: true });
  }
  const bin = (p: string) => path.join(ROOT, 'node_modules/.bin', p);
  out.push({ name: 'node', table: RUNNER_OPTIONS.node!, sources: [{ argv: [process.execPath, '--help'] }], required: true });
  out.push({
    name: 'mocha',
    table: RUNNER_OPTIONS.mocha!,
    sources: [{ argv: [bin('mocha'), '--help'], values: 'unknown' }],
    required: false,
  });
  out.push({ name: 'tsc', table: RUNNER_OPTIONS.tsc!, sources: [{ argv: [bin('tsc'), '--all'], values: 'typed-below' }], required: false });
  out.push({ name: 'pytest', table: RUNNER_OPTIONS.pytest!, sources: [{ argv: ['python3', '-m', 'pytest', '--help'] }], required: false });
  return out;
}

type TableKind = 'none' | 'consumes' | 'optional';

/** How the table takes an option's value: never, from the next word too, or attached only. */
function tableKind(table: OptionTable, spelling: string): TableKind {
  const kind = table.get(spelling)?.kind;
  if (kind === 'none' || kind === undefined) return 'none';
  return kind === 'optional' ? 'optional' : 'consumes';
}

/** Whether the program's documented forms agree with the table (forms of every spelling of the option together). */
function agrees(kind: TableKind, forms: ReadonlySet<ValueForm>): boolean {
  const has = (...fs: ValueForm[]) => fs.some((f) => forms.has(f));
  if (has('unknown')) return true;
  // GNU help lists an optional value as two lines, `--time` and `--time=WORD`.
  const optional = has('optional', 'attached') || (has('none') && has('equals') && !has('separate'));
  if (kind === 'none') return has('none');
  if (kind === 'optional') return optional || has('ambiguous');
  return has('separate', 'equals', 'ambiguous') && !optional;
}

/** What a person reviewed for one program: options left out on purpose, and listed spellings its docs do not show. */
export interface Reviewed {
  /** Documented options the table leaves out: they ask. */
  unlisted: string[];
  /** Spellings the table lists that this version does not document (aliases, other versions' options). */
  undocumented: string[];
}

export function problemsOf(p: CheckedProgram, docs: ProgramDocs, reviewed: Reviewed): string[] {
  const unlisted = new Set(reviewed.unlisted);
  const undocumented = new Set(reviewed.undocumented);
  const problems: string[] = [];
  const byName = new Map<string, string[]>();
  for (const s of p.table.spellings()) byName.set(p.table.get(s)!.name, [...(byName.get(p.table.get(s)!.name) ?? []), s]);
  for (const [name, spellings] of byName) {
    if (spellings.every((s) => s === '--help' || s === '--version')) continue;
    const forms = new Set(spellings.flatMap((s) => [...(docs.options.get(s)?.forms ?? [])]));
    const missing = spellings.filter((s) => !docs.options.has(s) && s !== '--help' && s !== '--version' && !undocumented.has(s));
    if (missing.length) problems.push(`lists ${missing.join(', ')}, which ${p.name} does not document`);
    if (forms.size && !agrees(tableKind(p.table, name), forms))
      problems.push(`reads ${spellings.join('/')} as ${tableKind(p.table, name)}, ${p.name} documents ${[...forms].join('|')}`);
  }
  for (const s of docs.options.keys())
    if (!p.table.get(s) && !unlisted.has(s)) problems.push(`documents ${s}, which the allowlist does not classify`);
  return problems;
}

function loadReviewed(): Record<string, Reviewed> {
  return fs.existsSync(UNLISTED_FILE) ? (JSON.parse(fs.readFileSync(UNLISTED_FILE, 'utf8')) as Record<string, Reviewed>) : {};
}

export interface ProgramReport {
  name: string;
  sources: string[];
  documented: number;
  problems: string[];
}

export function checkAll(programs = checkedPrograms(), reviewed = loadReviewed()): ProgramReport[] {
  return programs.map((p) => {
    const docs = readDocs(p.sources);
    const r = reviewed[p.name] ?? { unlisted: [], undocumented: [] };
    return {
      name: p.name,
      sources: docs.sources,
      documented: docs.options.size,
      problems: docs.sources.length ? problemsOf(p, docs, r) : [],
    };
  });
}

function main(): void {
  const write = process.argv.includes('--write-unlisted');
  if (write) {
    const out: Record<string, Reviewed> = {};
    for (const p of checkedPrograms()) {
      const docs = readDocs(p.sources);
      if (docs.sources.length === 0) continue;
      const unlisted = [...docs.options.keys()].filter((s) => !p.table.get(s)).sort();
      const undocumented = p.table
        .spellings()
        .filter((s) => !docs.options.has(s) && s !== '--help' && s !== '--version')
        .sort();
      if (unlisted.length || undocumented.length) out[p.name] = { unlisted, undocumented };
    }
    fs.mkdirSync(path.dirname(UNLISTED_FILE), { recursive: true });
    fs.writeFileSync(UNLISTED_FILE, `${JSON.stringify(out, null, 1)}\n`);
    console.log(`wrote ${UNLISTED_FILE}`);
    return;
  }
  let total = 0;
  for (const r of checkAll()) {
    const where = r.sources.length ? r.sources.join(' + ') : 'NOT INSTALLED';
    console.log(`${r.name}: ${r.documented} options documented (${where}), ${r.problems.length} problems`);
    for (const problem of r.problems) console.log(`  ${problem}`);
    total += r.problems.length;
  }
  console.log(`allowlist check: ${total} problems`);
}

if (require.main === module) main();
