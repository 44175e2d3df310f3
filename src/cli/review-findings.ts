// The findings of `keel review`: what the model returned in its answer's JSON block, checked
// (model output is untrusted: a malformed block or finding is dropped and counted, never
// trusted; only the known fields are kept), each anchored to a line of the diff or moved to the general comments when its line
// is not in the diff, and the two forms they are printed in — JSON (schemas/review-result.schema.json)
// and Markdown.
const SEVERITIES = ['blocking', 'warning', 'note'] as const;
const MAX_TEXT = 10_000;

export interface Finding {
  file: string;
  line: number;
  severity: (typeof SEVERITIES)[number];
  body: string;
  suggestion?: string;
}

/** A finding as the model gave it, checked field by field; undefined when it is not one. */
function checkedFinding(raw: unknown): Finding | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const f = raw as Record<string, unknown>;
  const text = (v: unknown, min: number) => typeof v === 'string' && v.length >= min && v.length <= MAX_TEXT;
  if (!text(f.file, 1) || !text(f.body, 1) || !Number.isInteger(f.line) || (f.line as number) < 1) return undefined;
  if (!SEVERITIES.includes(f.severity as Finding['severity'])) return undefined;
  if (f.suggestion !== undefined && !text(f.suggestion, 0)) return undefined;
  const finding: Finding = {
    file: f.file as string,
    line: f.line as number,
    severity: f.severity as Finding['severity'],
    body: f.body as string,
  };
  return f.suggestion === undefined ? finding : { ...finding, suggestion: f.suggestion as string };
}

export interface ReviewResult {
  /** What was reviewed: `--base REF`, `A...B` or `staged`. */
  diff: string;
  /** Findings on a line of the diff: a pull request takes each as a review comment there. */
  findings: Finding[];
  /** Findings whose line is not in the diff (or that name no line of it), kept as a general comment. */
  general: Finding[];
  /** How many findings the model gave that were not findings (dropped). */
  dropped: number;
  blocking: number;
}

/** The findings of the last ```json block of the answer: `{"findings": [...]}` or a bare list. */
export function parseFindings(answer: string): { findings: Finding[]; dropped: number } {
  const blocks = [...answer.matchAll(/```json\s*\n([\s\S]*?)```/g)];
  const last = blocks.at(-1)?.[1];
  if (last === undefined) return { findings: [], dropped: 0 };
  let json: unknown;
  try {
    json = JSON.parse(last);
  } catch {
    return { findings: [], dropped: 1 };
  }
  const list = Array.isArray(json) ? json : (json as { findings?: unknown } | null)?.findings;
  if (!Array.isArray(list)) return { findings: [], dropped: 1 };
  const findings = list.flatMap((f) => checkedFinding(f) ?? []);
  return { findings, dropped: list.length - findings.length };
}

/** Splits findings into those on a line of the diff and the rest (general comments). */
export function anchorFindings(
  findings: readonly Finding[],
  lines: ReadonlyMap<string, ReadonlySet<number>>,
): Pick<ReviewResult, 'findings' | 'general'> {
  const anchored: Finding[] = [];
  const general: Finding[] = [];
  for (const f of findings) (lines.get(f.file.replace(/^\.\//, ''))?.has(f.line) ? anchored : general).push(f);
  return { findings: anchored, general };
}

export function reviewMarkdown(r: ReviewResult): string {
  const out = [`## Keel review of ${r.diff}`, ''];
  if (r.findings.length + r.general.length === 0) out.push('No findings.');
  for (const f of r.findings) out.push(...findingMarkdown(f, `\`${f.file}:${f.line}\``));
  if (r.general.length) out.push('### General', '');
  for (const f of r.general) out.push(...findingMarkdown(f, `\`${f.file}:${f.line}\` (not in the diff)`));
  if (r.dropped) out.push(`_${r.dropped} malformed finding(s) from the model were dropped._`);
  out.push('', `${r.blocking} blocking finding(s).`);
  return `${out.join('\n')}\n`;
}

function findingMarkdown(f: Finding, where: string): string[] {
  const lines = [`- **${f.severity}** ${where}: ${f.body.replace(/\n/g, '\n  ')}`];
  if (f.suggestion !== undefined) lines.push('  ```suggestion', ...f.suggestion.split('\n').map((l) => `  ${l}`), '  ```');
  return [...lines, ''];
}
