// The secret detector's cost and quality, against the hand-made patterns it replaced (kept
// below as the baseline, exactly as they were on main). Cost: milliseconds per KB of text
// (median of runs) on real public code — files of packages in node_modules — and on the corpus.
// Quality, judged by the corpus's labels, never by the detector's own output: how many of the
// fake credentials each finds, how many innocent lines each flags, and findings per MB of real
// code (each is a false positive unless it is a documented example key; samples are printed).
// Writes bench/results/secrets.json.
import * as fs from 'node:fs';
import { loadavg } from 'node:os';
import * as path from 'node:path';
import { secretDetector } from '../src/compose/index.js';
import { createSecretDetector } from '../src/compose/secrets/detector.js';
import { childEnvironment } from '../src/node/command-shell.js';
import { innocentCorpus, secretCorpus } from '../test/support/secret-corpus.js';
import { median, round, writeResults } from './report.js';

type Find = (text: string) => [number, number][];

/** main's detection before this change: kernel/redact.ts's three patterns and secret-text.ts's five. */
const OLD_PATTERNS: RegExp[] = [
  /\b(?:sk-[A-Za-z0-9_-]{8,}|AIza[A-Za-z0-9_-]{20,}|xai-[A-Za-z0-9_-]{16,}|gsk_[A-Za-z0-9_-]{16,})/g,
  /\b(Bearer\s+)(?!\[redacted\])[^\s"'`,;)\]}]+/gi,
  /\b(authorization|x-api-key|api[-_]?key)(["']?\s*[:=]\s*["']?)(?:(?:Bearer|Basic|Token|Digest)\s+)?(?!\[redacted\])[^\s"'`,;)\]}]+/gi,
  /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/g,
  /\b(?:password|passwd|pwd)\s*[:=]/gi,
  /\b(?:secret|token|client_secret|access_token)\s*[:=]\s*\S{8,}/gi,
  /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g,
  /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g,
];

const oldFind: Find = (text) =>
  OLD_PATTERNS.flatMap((p) => [...text.matchAll(p)].map((m): [number, number] => [m.index!, m.index! + m[0].length]));
const detector = secretDetector();
const newFind: Find = (text) => detector.find(text).map((f) => [f.start, f.end]);
/** A deliberately bad detector, to show the yardstick can tell: it finds nothing. */
const blindFind: Find = () => [];

/** Real code: the text files of a fixed set of packages (their versions are in package-lock.json). */
const PACKAGES = [
  'zod',
  'yaml',
  'diff',
  '@anthropic-ai/sdk',
  'openai',
  'mocha',
  'picomatch',
  '@modelcontextprotocol/sdk',
  'express',
  'ajv',
];
const TEXT_FILE = /\.(?:js|cjs|mjs|ts|md|json)$/;
/** Per package, so every package is sampled (the first would fill the whole budget). */
const MAX_BYTES_PER_PACKAGE = 300_000;

function realFiles(): { file: string; text: string }[] {
  const out: { file: string; text: string }[] = [];
  let bytes = 0;
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (bytes >= MAX_BYTES_PER_PACKAGE) return;
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (TEXT_FILE.test(e.name) && !e.name.endsWith('.map')) {
        const text = fs.readFileSync(full, 'utf8');
        if (text.length > 400_000) continue;
        out.push({ file: path.relative('node_modules', full), text });
        bytes += text.length;
      }
    }
  };
  for (const p of PACKAGES) {
    bytes = 0;
    if (fs.existsSync(path.join('node_modules', p))) walk(path.join('node_modules', p));
  }
  return out;
}

function msPerKb(find: Find, texts: readonly string[], runs: number): number {
  const kb = texts.reduce((n, t) => n + t.length, 0) / 1024;
  for (const t of texts) find(t);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    for (const t of texts) find(t);
    times.push(performance.now() - start);
  }
  return median(times) / kb;
}

function quality(find: Find, files: { file: string; text: string }[]) {
  const corpus = secretCorpus();
  const found = corpus.filter((s) => {
    const spans = find(s.text);
    const at = s.text.indexOf(s.secret);
    return spans.some(([a, b]) => a < at + s.secret.length && b > at);
  }).length;
  const innocent = innocentCorpus();
  const flagged = innocent.filter((t) => find(t).length > 0).length;
  const mb = files.reduce((n, f) => n + f.text.length, 0) / 1e6;
  const hits = files.flatMap((f) =>
    find(f.text).map(([a, b]) => ({ file: f.file, excerpt: f.text.slice(Math.max(0, a - 30), Math.min(f.text.length, b + 10)) })),
  );
  return {
    corpusFound: found,
    corpusSize: corpus.length,
    recall: round(found / corpus.length),
    innocentFlagged: flagged,
    innocentSize: innocent.length,
    falsePositiveRate: round(flagged / innocent.length),
    realCodeFindings: hits.length,
    realCodeFindingsPerMB: round(hits.length / mb, 1),
    samples: hits.slice(0, 12).map((h) => `${h.file}: ${JSON.stringify(h.excerpt.replace(/\s+/g, ' '))}`),
  };
}

const files = realFiles();
const texts = files.map((f) => f.text);
const corpusTexts = secretCorpus().map((s) => s.text);
const RUNS = 7;
const cost = {
  realCodeKB: round(texts.reduce((n, t) => n + t.length, 0) / 1024, 0),
  realCodeFiles: files.length,
  newMsPerKbRealCode: round(msPerKb(newFind, texts, RUNS), 4),
  oldMsPerKbRealCode: round(msPerKb(oldFind, texts, RUNS), 4),
  newMsPerKbCorpus: round(msPerKb(newFind, corpusTexts, RUNS * 10), 4),
  oldMsPerKbCorpus: round(msPerKb(oldFind, corpusTexts, RUNS * 10), 4),
};
/** What a command's spawn pays: this process's environment judged, first time and again. */
function environmentCost(): { variables: number; firstMs: number; againMs: number } {
  const env = { ...process.env, GITHUB_TOKEN: 'x', TEAM_NOTIFY: secretCorpus()[12]!.secret };
  const first: number[] = [];
  const again: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const rules = { held: [], credentials: createSecretDetector() };
    let t = performance.now();
    childEnvironment(env, undefined, rules);
    first.push(performance.now() - t);
    t = performance.now();
    childEnvironment(env, undefined, rules);
    again.push(performance.now() - t);
  }
  return { variables: Object.keys(env).length, firstMs: round(median(first), 2), againMs: round(median(again), 3) };
}

const environment = environmentCost();
const results = {
  ...cost,
  environment,
  newOverOldRealCode: round(cost.newMsPerKbRealCode / cost.oldMsPerKbRealCode, 1),
  newOverOldCorpus: round(cost.newMsPerKbCorpus / cost.oldMsPerKbCorpus, 1),
  quality: { new: quality(newFind, files), old: quality(oldFind, files), blind: quality(blindFind, files) },
  loadAverage: loadavg().map((l) => round(l, 2)),
};
for (const [k, v] of Object.entries(cost)) console.log(`${k.padEnd(28)} ${v}`);
console.log(
  `environment: ${environment.variables} variables judged in ${environment.firstMs} ms, ${environment.againMs} ms the next command`,
);
console.log(`new/old cost: ${results.newOverOldRealCode}x on real code, ${results.newOverOldCorpus}x on the corpus`);
for (const [name, q] of Object.entries(results.quality)) {
  console.log(
    `${name.padEnd(6)} corpus ${q.corpusFound}/${q.corpusSize}, innocent flagged ${q.innocentFlagged}/${q.innocentSize}, ` +
      `real code ${q.realCodeFindings} findings (${q.realCodeFindingsPerMB}/MB)`,
  );
  for (const s of q.samples) console.log(`    ${s.slice(0, 160)}`);
}
console.log(`load average ${results.loadAverage.join(' ')}`);
console.log(writeResults('secrets', results));
