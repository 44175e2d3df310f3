// A generated TypeScript repository for bench:codeintel: `files` modules in folders of 100,
// each importing from a few others, defining a class, functions, an interface and a constant.
// Two names are planted with known uses, so the bench checks answers against the truth the
// generator wrote (never against Keel's output):
// - `formatRecord` (src/core/format.ts) is called once in every module: thousands of uses;
// - `parseLedgerEntry` (src/ledger/parse.ts) is called by a few modules; the same word also
//   sits in comments and strings elsewhere, and a class method of that name exists (a
//   different symbol), as real code has.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface GeneratedRepo {
  root: string;
  files: number;
  /** Where each planted name is defined, and the modules that call it (with the call's line). */
  truth: Record<
    'formatRecord' | 'parseLedgerEntry',
    {
      definition: { path: string; line: number };
      callers: Map<string, number[]> /** path:line of each import of it. */;
      imports: Set<string>;
    }
  >;
  /** A module to change for the update measure. */
  sample: string;
}

const LEDGER_CALLER_EVERY = 125;
const DECOY_EVERY = 50;

export function generateRepo(root: string, files: number): GeneratedRepo {
  const write = (rel: string, text: string) => {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  };
  write('src/core/format.ts', FORMAT);
  write('src/ledger/parse.ts', LEDGER);
  write('.gitignore', 'node_modules/\ndist/\n');
  const truth: GeneratedRepo['truth'] = {
    formatRecord: { definition: { path: 'src/core/format.ts', line: 6 }, callers: new Map(), imports: new Set() },
    parseLedgerEntry: { definition: { path: 'src/ledger/parse.ts', line: 8 }, callers: new Map(), imports: new Set() },
  };
  for (let i = 0; i < files; i++) {
    const { text, formatLine, ledgerLine } = moduleText(i, files);
    const rel = modulePath(i);
    write(rel, text);
    truth.formatRecord.callers.set(rel, [formatLine]);
    truth.formatRecord.imports.add(`${rel}:2`);
    if (ledgerLine) {
      truth.parseLedgerEntry.callers.set(rel, [ledgerLine]);
      truth.parseLedgerEntry.imports.add(`${rel}:3`);
    }
  }
  return { root, files: files + 2, truth, sample: modulePath(Math.floor(files / 2)) };
}

function modulePath(i: number): string {
  return `src/area${Math.floor(i / 100)}/module${i}.ts`;
}

function importPath(from: number, to: number): string {
  const same = Math.floor(from / 100) === Math.floor(to / 100);
  return same ? `./module${to}.js` : `../area${Math.floor(to / 100)}/module${to}.js`;
}

function moduleText(i: number, n: number): { text: string; formatLine: number; ledgerLine: number | undefined } {
  const deps = [1, 7, 31].map((k) => (i + k) % n).filter((d) => d !== i);
  const callsLedger = i % LEDGER_CALLER_EVERY === 3;
  const decoy = i % DECOY_EVERY === 7;
  const lines: string[] = [
    `// Module ${i}: records of kind ${i % 13}.`,
    `import { formatRecord } from '../core/format.js';`,
    ...(callsLedger ? [`import { parseLedgerEntry } from '../ledger/parse.js';`] : []),
    ...deps.map((d) => `import { Service${d}, compute${d} } from '${importPath(i, d)}';`),
    '',
    `export interface Options${i} {`,
    '  limit: number;',
    '  label?: string;',
    '}',
    '',
    `export const DEFAULT_LIMIT_${i} = ${i % 97};`,
    '',
    `export class Service${i} {`,
    `  private readonly items: string[] = [];`,
    '',
    `  constructor(private readonly options: Options${i}) {}`,
    '',
    `  add(item: string): void {`,
    `    if (this.items.length < this.options.limit) this.items.push(item);`,
    '  }',
    '',
    `  describe(): string {`,
  ];
  const formatLine = lines.length + 1;
  lines.push(`    return formatRecord('service-${i}', this.items.length);`, '  }');
  let ledgerLine: number | undefined;
  if (callsLedger) {
    lines.push('', `  load(text: string): number {`);
    ledgerLine = lines.length + 1;
    lines.push(`    return parseLedgerEntry(text).amount;`, '  }');
  }
  if (decoy) {
    lines.push(
      '',
      `  // Not the ledger's parseLedgerEntry: this class keeps its own.`,
      `  parseLedgerEntry(raw: string): string {`,
      `    return "parseLedgerEntry is not called here: " + raw;`,
      '  }',
    );
  }
  lines.push('}', '');
  lines.push(`export function compute${i}(value: number): number {`);
  lines.push(`  let total = value;`);
  for (const d of deps) lines.push(`  total += compute${d}.length + new Service${d}({ limit: ${d % 10} }).describe().length;`);
  lines.push('  return total;', '}', '');
  lines.push(`export function render${i}(options: Options${i}): string {`);
  lines.push(`  const label = options.label ?? 'module ${i}';`);
  lines.push(`  return \`\${label}: \${options.limit}\`;`, '}', '');
  return { text: lines.join('\n'), formatLine, ledgerLine };
}

const FORMAT = `// Formats one record for logs and reports.
export interface FormatOptions {
  width: number;
}

export function formatRecord(name: string, count: number, options: FormatOptions = { width: 40 }): string {
  const text = \`\${name}=\${count}\`;
  return text.padEnd(options.width);
}
`;

const LEDGER = `// Parses one ledger line: "date;amount;memo".
export interface LedgerEntry {
  date: string;
  amount: number;
  memo: string;
}

export function parseLedgerEntry(line: string): LedgerEntry {
  const [date = '', amount = '0', memo = ''] = line.split(';');
  return { date, amount: Number(amount), memo };
}
`;
