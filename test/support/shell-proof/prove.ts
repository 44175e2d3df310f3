// The differential proof: every corpus line the classifier calls read_only and the policy would
// run unasked under `keel run --approve execute` is run for real (trace-line.ts) in a sandbox
// (sandbox.ts) and judged (judge.ts). Lines are spread over a few workers, each with its own
// sandbox; a sandbox is put back after a line that changed it.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { PolicyContext, ToolIntent, Workspace } from '../../../src/kernel/index.js';
import { parseRunArgs } from '../../../src/cli/args.js';
import { createNodeWorkspace } from '../../../src/node/node-workspace.js';
import { classifyCommand, createPolicy } from '../../../src/tools/index.js';
import { runCommandTool } from '../../../src/tools/run-command.js';
import type { CorpusLine } from './corpus.js';
import { judgeRun, type Violation } from './judge.js';
import { buildTemplate, createSandbox, makeCanaries, type Canaries, type Sandbox } from './sandbox.js';
import { traceLine, type Tracer } from './trace-line.js';

/** The classifier's answer, read through the fields this proof relies on. */
export interface Classified {
  type: string;
  reasons: string[];
  programs?: string[];
  paths?: { path: string; access: 'read' | 'write' }[];
}

export interface LineResult {
  line: CorpusLine;
  classified: Classified;
  /** The policy's verdict under --approve execute, for read_only lines. */
  policy?: 'allow' | 'ask' | 'deny';
  ran: boolean;
  violations: Violation[];
  /** The shims' argv log and the output, kept for lines with violations. */
  shimLog?: string;
  output?: string;
  ms?: number;
}

export interface ProofOptions {
  workers: number;
  timeoutMs: number;
  onResult?: (r: LineResult) => void;
}

/**
 * The options `keel run --approve execute` gives the policy, with the sandbox off: what the
 * classifier alone lets run unasked (with a sandbox the same lines run, inside it).
 */
function headlessExecutePolicy() {
  const o = parseRunArgs(['run', '--approve', 'execute', '--sandbox', 'off', 'task'], process.cwd());
  return createPolicy({ autoApprove: o.approve, sandbox: o.sandbox });
}

export async function proveCorpus(tracer: Tracer, lines: readonly CorpusLine[], o: ProofOptions): Promise<LineResult[]> {
  const canaries = makeCanaries();
  const template = buildTemplate(canaries);
  const results: LineResult[] = new Array(lines.length);
  let next = 0;
  try {
    const worker = async () => {
      const w = await openProofSandbox(template, canaries);
      try {
        while (next < lines.length) {
          const i = next++;
          results[i] = await proveLine(tracer, lines[i]!, w, o.timeoutMs);
          o.onResult?.(results[i]!);
        }
      } finally {
        w.dispose();
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, o.workers) }, worker));
  } finally {
    fs.rmSync(template, { recursive: true, force: true });
  }
  return results;
}

/** A sandbox of one's own, with the Workspace the policy checks paths against. */
export interface ProofSandbox {
  box: Sandbox;
  workspace: Workspace;
  traceFile: string;
  dispose(): void;
}

export async function openProofSandbox(template: string, canaries: Canaries): Promise<ProofSandbox> {
  const box = createSandbox(template, canaries);
  const traces = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-proof-trace-'));
  return {
    box,
    workspace: await createNodeWorkspace(box.ws),
    traceFile: path.join(traces, 'strace.log'),
    dispose: () => {
      box.dispose();
      fs.rmSync(traces, { recursive: true, force: true });
    },
  };
}

async function proveLine(tracer: Tracer, line: CorpusLine, w: ProofSandbox, timeoutMs: number): Promise<LineResult> {
  const classified = classifyCommand(line.text) as Classified;
  if (classified.type !== 'read_only') return { line, classified, ran: false, violations: [] };
  const policy = await policyVerdict(line.text, w.workspace);
  if (policy !== 'allow') return { line, classified, policy, ran: false, violations: [] };
  const result = await runJudged(tracer, line.text, classified, w, timeoutMs);
  return { line, classified, policy, ran: true, ...result };
}

/** Runs one line in the worker's sandbox and judges it; the sandbox is restored if the line changed it. */
export async function runJudged(
  tracer: Tracer,
  text: string,
  classified: Pick<Classified, 'programs'>,
  w: ProofSandbox,
  timeoutMs: number,
): Promise<Pick<LineResult, 'violations' | 'shimLog' | 'output' | 'ms'>> {
  const { box } = w;
  fs.writeFileSync(box.shimLog, '');
  const before = fingerprint(box);
  const run = await traceLine(tracer, text, { cwd: box.ws, env: box.env, traceFile: w.traceFile, timeoutMs });
  const violations = judgeRun(run, { programs: classified.programs ?? [] }, box);
  const changed = diffFingerprints(before, fingerprint(box));
  // A tripwire on the harness itself: a change that no traced call explains means the trace missed something.
  if (changed.length && !violations.some((v) => v.kind === 'write'))
    violations.push({
      kind: 'write',
      detail: `the sandbox changed with no traced write: ${changed
        .slice(0, 5)
        .map((c) => `${c.how} ${c.path}`)
        .join(', ')}`,
    });
  if (changed.length) box.reset([...new Set(changed.map((c) => path.relative(box.root, c.path).split(path.sep)[0]!))]);
  if (violations.length === 0) return { violations, ms: run.ms };
  const output = (run.stdout + run.stderr).slice(0, 2000);
  return { violations, ms: run.ms, output, shimLog: fs.readFileSync(box.shimLog, 'utf8').slice(0, 2000) };
}

async function policyVerdict(command: string, workspace: Workspace): Promise<'allow' | 'ask' | 'deny'> {
  const input = { command };
  const intent: ToolIntent = {
    id: 'proof',
    tool: runCommandTool.name,
    input,
    providerRef: 'proof',
    summary: runCommandTool.summarize(input),
    risk: runCommandTool.risk,
    paths: runCommandTool.paths?.(input) ?? [],
    status: 'proposed',
  };
  const ctx: PolicyContext = { tool: runCommandTool, grants: [], workspace };
  return (await headlessExecutePolicy().decide(intent, ctx)).type;
}

/** Name, size, mode, time and link target of everything in the sandbox's world. */
export function fingerprint(box: Sandbox): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      const st = fs.lstatSync(p);
      const link = st.isSymbolicLink() ? fs.readlinkSync(p) : '';
      out.set(p, `${st.mode}:${st.size}:${st.mtimeMs}:${link}`);
      if (st.isDirectory()) walk(p);
    }
  };
  for (const dir of [box.ws, box.home, box.outside, path.join(box.root, 'ws-evil'), box.tmp, path.join(box.root, 'mono')]) {
    if (fs.existsSync(dir)) walk(dir);
    else out.set(dir, 'missing');
  }
  return out;
}

export interface Change {
  how: 'created' | 'changed' | 'removed';
  path: string;
}

export function diffFingerprints(a: Map<string, string>, b: Map<string, string>): Change[] {
  const changed: Change[] = [];
  for (const [p, v] of b) if (a.get(p) !== v) changed.push({ how: a.has(p) ? 'changed' : 'created', path: p });
  for (const p of a.keys()) if (!b.has(p)) changed.push({ how: 'removed', path: p });
  return changed;
}

/** Counts for the summary line. */
export function summarize(results: readonly LineResult[]) {
  const byType: Record<string, number> = {};
  for (const r of results) byType[r.classified.type] = (byType[r.classified.type] ?? 0) + 1;
  const readOnly = results.filter((r) => r.classified.type === 'read_only');
  const ran = results.filter((r) => r.ran);
  return {
    corpus: results.length,
    byType,
    readOnly: readOnly.length,
    refusedByPolicy: readOnly.length - ran.length,
    ran: ran.length,
    clean: ran.filter((r) => r.violations.length === 0).length,
    failed: ran.filter((r) => r.violations.length > 0),
  };
}
