// Runs the round-2 lines (generate-round2.ts) that `keel run --approve execute` would run unasked
// twice: outside the sandbox under strace, judged as the differential proof judges (what the
// classifier let through), and inside the OS sandbox in the profile the policy chose, where what
// counts is what changed in the world — a file outside the workspace (or any file, read-only; a
// protected path, for a test run), a secret printed, a connection received. Inside must be zero.
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import type { PolicyContext, SandboxProfile, ToolIntent, Workspace } from '../../../src/kernel/index.js';
import { createNodeWorkspace } from '../../../src/node/node-workspace.js';
import { runProcess } from '../../../src/node/run-process.js';
import type { NodeSandbox } from '../../../src/node/sandbox/node-sandbox.js';
import { COMMAND_ENV, COMMAND_SANDBOX_RULES, classifyCommand, createPolicy } from '../../../src/tools/index.js';
import { detectTestCommand } from '../../../src/tools/run-tests/detect-command.js';
import { runTestsTool } from '../../../src/tools/run-tests/run-tests.js';
import { runCommandTool } from '../../../src/tools/run-command.js';
import type { Round2Line } from './generate-round2.js';
import { judgeRun, type Violation } from './judge.js';
import { diffFingerprints, fingerprint } from './prove.js';
import { buildTemplate, createSandbox, makeCanaries, type Sandbox } from './sandbox.js';
import { traceLine, type Tracer } from './trace-line.js';

export interface Round2Result {
  line: Round2Line;
  verdict: 'allow' | 'ask' | 'deny';
  profile?: SandboxProfile;
  /** What the line did run outside the sandbox (strace), for lines run unasked. */
  outside: Violation[];
  /** What changed in the world when it ran inside the sandbox. */
  inside: string[];
}

const SYSTEM_PATH = '/usr/local/bin:/usr/bin:/bin';

interface Worker {
  box: Sandbox;
  port: number;
  connections: string[];
  traceFile: string;
  workspaces: Record<Round2Line['workspace'], Workspace>;
  close(): Promise<void>;
}

export async function proveRound2(
  tracer: Tracer,
  lines: readonly Round2Line[],
  o: {
    workers: number;
    timeoutMs: number;
    onResult?: (r: Round2Result) => void;
    /** Runs the "inside" half as this profile whatever the policy chose: `none` shows the yardstick sees effects. */
    insideAs?: SandboxProfile;
  },
): Promise<Round2Result[]> {
  const canaries = makeCanaries();
  const template = buildTemplate(canaries);
  const results: Round2Result[] = new Array(lines.length);
  let next = 0;
  // Commands inherit this process's environment: npm's settings from an `npm test` that started
  // it would point npm at the real home's cache and config, out of the proof world's sight.
  const npmSettings = Object.entries(process.env).filter(([k]) => /^npm_config_/i.test(k));
  for (const [k] of npmSettings) delete process.env[k];
  try {
    const work = async () => {
      const w = await openWorker(template, canaries);
      try {
        while (next < lines.length) {
          const i = next++;
          results[i] = await proveOne(tracer, lines[i]!, w, o.timeoutMs, o.insideAs);
          o.onResult?.(results[i]!);
        }
      } finally {
        await w.close();
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, o.workers) }, work));
  } finally {
    fs.rmSync(template, { recursive: true, force: true });
    for (const [k, v] of npmSettings) process.env[k] = v;
  }
  return results;
}

async function openWorker(template: string, canaries: ReturnType<typeof makeCanaries>): Promise<Worker> {
  const box = createSandbox(template, canaries);
  const connections: string[] = [];
  const listener = net.createServer((s) => connections.push(String(s.remotePort)) && s.destroy());
  await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
  const sandbox = { rules: COMMAND_SANDBOX_RULES };
  const workspaces = {
    ws: await createNodeWorkspace(box.ws, { sandbox }),
    'mono/app': await createNodeWorkspace(path.join(box.root, 'mono/app'), { sandbox }),
  };
  const traces = fs.mkdtempSync(path.join(box.root, '..', 'keel-round2-trace-'));
  return {
    box,
    port: (listener.address() as net.AddressInfo).port,
    connections,
    traceFile: path.join(traces, 'strace.log'),
    workspaces,
    close: async () => {
      listener.close();
      box.dispose();
      fs.rmSync(traces, { recursive: true, force: true });
    },
  };
}

async function proveOne(tracer: Tracer, line: Round2Line, w: Worker, timeoutMs: number, insideAs?: SandboxProfile): Promise<Round2Result> {
  const text = line.text.replaceAll('/127.0.0.1/9', `/127.0.0.1/${w.port}`);
  const ws = w.workspaces[line.workspace];
  const decision = await verdict(line, text, ws);
  if (decision.type !== 'allow') return { line, verdict: decision.type, outside: [], inside: [] };
  const profile = decision.sandbox ?? 'none';
  const command = line.tool === 'run_tests' ? text || ((await detectTestCommand(ws))?.command ?? 'true') : text;
  const outside = await runOutside(tracer, command, profile, ws.root, w, timeoutMs);
  const inside = await runInside(line, text, insideAs ?? profile, ws, w, timeoutMs);
  return { line, verdict: 'allow', profile, outside, inside };
}

/** What `keel run --approve execute` decides, the sandbox on and available. */
async function verdict(line: Round2Line, text: string, ws: Workspace) {
  const tool = line.tool === 'run_tests' ? runTestsTool : runCommandTool;
  const input = line.tool === 'run_tests' ? (text ? { command: text } : {}) : { command: text };
  const intent: ToolIntent = {
    id: 'p',
    tool: tool.name,
    input,
    providerRef: 'p',
    summary: text,
    risk: tool.risk,
    paths: tool.paths?.(input as never) ?? [],
    status: 'proposed',
  };
  const ctx: PolicyContext = { tool, grants: [], workspace: ws };
  return createPolicy({ autoApprove: ['read', 'execute'], sandbox: 'unasked' }).decide(intent, ctx);
}

async function runOutside(tracer: Tracer, command: string, profile: SandboxProfile, cwd: string, w: Worker, timeoutMs: number) {
  const { box } = w;
  const judged: Sandbox = { ...box, ws: cwd };
  const before = fingerprint(box);
  w.connections.length = 0;
  const run = await traceLine(tracer, command, { cwd, env: box.env, traceFile: w.traceFile, timeoutMs });
  let violations = judgeRun(run, { programs: classifyCommand(command).programs }, judged);
  if (profile === 'test_run') violations = violations.filter((v) => !allowedForTestRun(v, cwd));
  restore(box, before);
  return violations;
}

/** A test run runs the project's code and writes in the workspace by design: only what reaches beyond it counts. */
function allowedForTestRun(v: Violation, ws: string): boolean {
  if (v.kind === 'exec') return true;
  if (v.kind !== 'write' || !v.path) return false;
  const rel = path.relative(ws, v.path);
  const inside = rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
  return inside && !COMMAND_SANDBOX_RULES.readOnly(rel);
}

async function runInside(line: Round2Line, text: string, profile: SandboxProfile, ws: Workspace, w: Worker, timeoutMs: number) {
  const { box } = w;
  const before = fingerprint(box);
  w.connections.length = 0;
  const env = { ...COMMAND_ENV, ...box.env, PATH: SYSTEM_PATH };
  let output: string;
  if (line.tool === 'run_tests') {
    const signal = new AbortController().signal;
    const ctx = { workspace: ws, signal, fileVersions: {}, onProgress: () => {}, sandbox: profile };
    output = (await runTestsTool.execute(text ? { command: text } : {}, ctx)).content;
  } else {
    const signal = new AbortController().signal;
    const sandbox = ws.sandbox as NodeSandbox;
    const r = await runProcess(text, ws.root, { timeoutMs, signal, maxCaptureChars: 200_000, sandbox: profile, env }, { sandbox }).catch(
      (err: Error) => ({ combined: { head: `[did not run: ${err.message}]`, tail: '' } }),
    );
    output = r.combined.head + r.combined.tail;
  }
  const effects = changedWorld(box, before, profile, ws.root);
  for (const token of box.canaries) if (output.includes(token)) effects.push(`printed the secret ${token.slice(0, 20)}…`);
  if (w.connections.length) effects.push(`connected to the listener on the machine (${w.connections.length} times)`);
  restore(box, before);
  return effects;
}

/**
 * Changes to the world a sandboxed run may not make: any for read-only, outside the workspace or
 * to its protected paths for a test run — but for the workspace folder itself (a test run may add
 * an entry to it) and a protected file a runner creates as part of running (a first Cargo.lock,
 * .pytest_cache/.gitignore), which the sandbox keeps.
 */
function changedWorld(box: Sandbox, before: Map<string, string>, profile: SandboxProfile, ws: string): string[] {
  const exists = (rel: string) => fs.existsSync(path.join(ws, rel));
  return diffFingerprints(before, fingerprint(box))
    .filter((c) => {
      if (profile !== 'test_run') return true;
      const rel = path.relative(ws, c.path);
      if (rel === '' && c.how === 'changed') return false;
      const inside = rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
      if (inside && c.how === 'created' && COMMAND_SANDBOX_RULES.runnerWrites?.(rel, exists)) return false;
      return !inside || COMMAND_SANDBOX_RULES.readOnly(rel);
    })
    .map((c) => `${c.how} ${path.relative(box.root, c.path)}`);
}

function restore(box: Sandbox, before: Map<string, string>): void {
  const changed = diffFingerprints(before, fingerprint(box));
  if (changed.length) box.reset([...new Set(changed.map((c) => path.relative(box.root, c.path).split(path.sep)[0]!))]);
}

/** Counts for the report. */
export function summarizeRound2(results: readonly Round2Result[]) {
  const ran = results.filter((r) => r.verdict === 'allow');
  const byCategory: Record<string, { generated: number; ran: number; outside: number; inside: number }> = {};
  for (const r of results) {
    const c = (byCategory[r.line.category] ??= { generated: 0, ran: 0, outside: 0, inside: 0 });
    c.generated++;
    if (r.verdict === 'allow') c.ran++;
    if (r.outside.length) c.outside++;
    if (r.inside.length) c.inside++;
  }
  return {
    generated: results.length,
    ranUnasked: ran.length,
    effectsOutside: ran.filter((r) => r.outside.length > 0).length,
    effectsInside: ran.filter((r) => r.inside.length > 0).length,
    byCategory,
  };
}
