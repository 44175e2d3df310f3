// The machine-readable report a runner writes as part of running, read in preference to its
// console: Maven's surefire and failsafe (target/*-reports/TEST-*.xml) and Gradle
// (build/test-results/<task>/TEST-*.xml) write JUnit XML into the project on every test run, so
// nothing is added to the command or the project's config. Only files the run wrote are read
// (older ones are another run's); a test's place is the first frame of its stack in the test
// class's source file, found under the module's source folders.
import type { Workspace } from '../../kernel/index.js';
import { tidy } from './message-text.js';
import type { TestFailure, TestReport } from './test-report.js';

/** Where the build tools write their reports, under a module's folder. */
const REPORT_DIRS = ['target/surefire-reports', 'target/failsafe-reports', 'build/test-results'];
/** Source folders a test class lives under (Maven's and Gradle's conventions). */
const SOURCE_DIRS = ['src/test/java', 'src/test/kotlin', 'src/test/groovy', 'src/test/scala', 'src/integrationTest/java'];
/** Report files read at most, and module folders looked in (the root and its children). */
const MAX_FILES = 500;
const MAX_MODULES = 50;
/** A file system's times may round: a report written as the run started still counts. */
const CLOCK_SLACK_MS = 2000;
const decoder = new TextDecoder();

interface Case {
  name: string;
  classname: string;
  outcome: 'passed' | 'failed' | 'skipped';
  message?: string;
  detail?: string;
}

/** The report of the JUnit XML files written since `since` (epoch ms), or undefined when there are none. */
export async function junitReport(ws: Workspace, since: number): Promise<TestReport | undefined> {
  const files = await freshReports(ws, since - CLOCK_SLACK_MS);
  if (files.length === 0) return undefined;
  const cases: { module: string; c: Case }[] = [];
  for (const f of files) {
    const text = decoder.decode(await ws.readFile(f.path).catch(() => new Uint8Array()));
    for (const c of testCases(text)) cases.push({ module: f.module, c });
  }
  if (cases.length === 0) return undefined;
  const failures: TestFailure[] = [];
  for (const { module, c } of cases.filter((x) => x.c.outcome === 'failed')) failures.push(await failureOf(ws, module, c));
  return {
    runner: 'junit',
    passed: cases.filter((x) => x.c.outcome === 'passed').length,
    failed: failures.length,
    skipped: cases.filter((x) => x.c.outcome === 'skipped').length,
    failures,
  };
}

async function freshReports(ws: Workspace, since: number): Promise<{ path: string; module: string }[]> {
  const modules = ['', ...(await ws.readDir('').catch(() => [])).filter((e) => e.type === 'directory').map((e) => e.path)];
  const out: { path: string; module: string }[] = [];
  for (const module of modules.slice(0, MAX_MODULES + 1)) {
    for (const dir of REPORT_DIRS) {
      const at = module ? `${module}/${dir}` : dir;
      const entries = await ws.readDir(at).catch(() => []);
      // Gradle writes one folder per test task; Maven writes the files in the folder itself.
      const folders = [at, ...entries.filter((e) => e.type === 'directory').map((e) => e.path)];
      for (const folder of folders) {
        for (const e of folder === at ? entries : await ws.readDir(folder).catch(() => [])) {
          if (out.length >= MAX_FILES || e.type !== 'file' || !/\/TEST-[^/]+\.xml$/.test(e.path)) continue;
          const st = await ws.stat(e.path).catch(() => undefined);
          if (st && st.mtimeMs >= since) out.push({ path: e.path, module });
        }
      }
    }
  }
  return out;
}

/** Each `<testcase>` of a report, with its outcome and the first failure or error inside it. */
function testCases(xml: string): Case[] {
  const out: Case[] = [];
  for (const m of xml.matchAll(/<testcase\b([^>]*?)(?:\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const attrs = attributes(m[1]!);
    const body = m[2] ?? '';
    const problem = /<(failure|error)\b([^>]*?)(?:\/>|>([\s\S]*?)<\/\1>)/.exec(body);
    const base = { name: attrs.name ?? '', classname: attrs.classname ?? '' };
    if (problem) {
      const p = attributes(problem[2]!);
      out.push({ ...base, outcome: 'failed', message: p.message ?? p.type ?? problem[1]!, detail: text(problem[3] ?? '') });
    } else out.push({ ...base, outcome: /<skipped\b/.test(body) ? 'skipped' : 'passed' });
  }
  return out;
}

function attributes(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(/([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) out[m[1]!] = entities(m[2] ?? m[3] ?? '');
  return out;
}

/** Element text: CDATA as written, everything else with its entities decoded. */
function text(body: string): string {
  return body.replace(
    /<!\[CDATA\[([\s\S]*?)\]\]>|([^<]+)/g,
    (_, cdata: string | undefined, plain: string | undefined) => cdata ?? entities(plain ?? ''),
  );
}

function entities(s: string): string {
  return s.replace(/&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-fA-F]+);/g, (_, e: string) => {
    if (e.startsWith('#x')) return String.fromCodePoint(Number.parseInt(e.slice(2), 16));
    if (e.startsWith('#')) return String.fromCodePoint(Number(e.slice(1)));
    return { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }[e]!;
  });
}

async function failureOf(ws: Workspace, module: string, c: Case): Promise<TestFailure> {
  const cls = c.classname.split('.').pop() ?? c.classname;
  const name = `${cls} > ${c.name.replace(/\(\)$/, '')}`;
  const message = tidy([c.message ?? 'failed']);
  const frame = new RegExp(
    `\\bat ${regexpText(c.classname)}(?:\\$\\S*)?\\.[\\w$<>]+\\(([\\w$]+\\.(?:java|kt|groovy|scala)):(\\d+)\\)`,
  ).exec(c.detail ?? '');
  if (!frame) return { kind: 'test_failure', name, message };
  const file = await sourceFile(ws, module, c.classname, frame[1]!);
  return { kind: 'test_failure', name, ...(file ? { file } : {}), line: Number(frame[2]), message };
}

/** `demo.LeapTest` in LeapTest.java: the file under the module's test source folders, when it is there. */
async function sourceFile(ws: Workspace, module: string, classname: string, fileName: string): Promise<string | undefined> {
  const pkg = classname.split('.').slice(0, -1).join('/');
  for (const dir of SOURCE_DIRS) {
    const rel = [module, dir, pkg, fileName].filter(Boolean).join('/');
    if ((await ws.stat(rel).catch(() => undefined))?.type === 'file') return rel;
  }
  return undefined;
}

function regexpText(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
