// Monorepo task runners prefix each line of a package's output with where it came from — turbo
// `web:test: `, pnpm -r `packages/web test: `, lerna --stream and nx's stream style `web: `,
// yarn workspaces foreach `[web]: ` — and interleave packages that run at once. Each package's
// lines are taken back out, prefix stripped and in their order, so its runner's parser reads
// them as if the runner had printed them alone; the package names each failure it reports.

export interface PackageOutput {
  /** The package as the task runner names it; undefined for lines no prefix marked. */
  package?: string;
  text: string;
}

/** A prefix form: the package it names, and the rest of the line. */
const PREFIXES: readonly RegExp[] = [
  // turbo: `name:task: line` (a scoped name holds a `/`).
  /^((?:@[\w.-]+\/)?[\w.-]+):(?:test|tests|check)(?::[\w:.-]+)?: ?(.*)$/,
  // pnpm -r: `packages/web test: line` (`packages/web test$ cmd` is its header).
  /^([\w./@-]+) (?:test|tests|check)[:$] ?(.*)$/,
  // yarn workspaces foreach: `[name]: line`.
  /^\[((?:@[\w.-]+\/)?[\w.-]+)\]: ?(.*)$/,
  // lerna --stream, nx's stream style: `name: line`.
  /^((?:@[\w.-]+\/)?[\w.-]+): (.*)$/,
];

/** Lines a prefix must mark, at least, before the output is read as a task runner's. */
const MIN_MARKED = 3;
/** …and the share of the output's non-blank lines they must be. */
const MIN_SHARE = 0.5;

/** The output split by package when a task runner prefixed it; otherwise the output whole. */
export function splitByPackage(output: string): PackageOutput[] {
  const lines = output.split('\n');
  const nonBlank = lines.filter((l) => l.trim() !== '').length;
  for (const prefix of PREFIXES) {
    const marked = lines.map((l) => prefix.exec(l));
    const count = marked.filter(Boolean).length;
    if (count < MIN_MARKED || count < nonBlank * MIN_SHARE) continue;
    const packages = new Set(marked.flatMap((m) => (m ? [m[1]!] : [])));
    // One "name: …" label over most lines is prose (or a log format), not packages.
    if (prefix === PREFIXES[3] && packages.size < 2) continue;
    return grouped(lines, marked);
  }
  return [{ text: output }];
}

function grouped(lines: readonly string[], marked: readonly (RegExpExecArray | null)[]): PackageOutput[] {
  const byPackage = new Map<string | undefined, string[]>();
  lines.forEach((line, i) => {
    const m = marked[i];
    const key = m ? m[1]! : undefined;
    const list = byPackage.get(key) ?? [];
    list.push(m ? m[2]! : line);
    byPackage.set(key, list);
  });
  return [...byPackage].map(([pkg, text]) => ({ ...(pkg === undefined ? {} : { package: pkg }), text: text.join('\n') }));
}
