// The fault suite (issue 22, item 10): a scripted task run by the real keel CLI is killed with
// SIGKILL at every durable write point — just before and just after each append to the task log,
// each temp file of an atomic write, each rename that commits one — and after each kill: the log
// parses (at most its last line torn), every file is its original or its complete new version,
// no process Keel started lives on, `keel resume` takes the task to its end (done, or refused
// only because a call the kill interrupted was asked again and nobody could answer; or it says why
// there is nothing to resume), after which no temp file is left, and `keel replay` reads the resumed log
// (at one point of each kind and every fourth point: it reads any log the same way).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isKeelTempPath } from '../../../src/kernel/index.js';
import { loadLog } from '../../../src/node/jsonl-store.js';
import { replay } from '../../../src/kernel/index.js';
import {
  bundleCli,
  CHANGED,
  filesIn,
  KILL_HOOK,
  ORIGINAL,
  processesIn,
  runNode,
  taskModel,
  writeWorkspace,
} from '../../support/fault-harness.js';
import { startModelServer, type ModelServer } from '../../support/model-server.js';
import { scratchDir } from '../../support/scratch.js';

const TASK = 'Capitalise the first note, add a new one, and mark it done.';

describe('fault suite: keel killed at every write point', function () {
  this.timeout(600_000);
  let cli: string;
  let server: ModelServer;
  let start: string;
  let ops: { op: string; file?: string; types?: string[] }[];
  const replayedKinds = new Set<string>();
  /** The kinds of event whose write a kill came just before or just after. */
  const eventKinds = new Set<string>();

  before(async () => {
    cli = await bundleCli();
    server = await startModelServer(taskModel());
    start = path.join(scratchDir('fault-start'), 'ws');
    writeWorkspace(start);
    // A run that is never killed lists the write points in order.
    const trace = path.join(scratchDir('fault-trace'), 'trace.jsonl');
    const dir = scratchDir('fault-count');
    const clean = await keel(dir, ['--require', KILL_HOOK], { KEEL_FAULT_TRACE: trace });
    assert.equal(clean.code, 0, clean.stdout + clean.stderr);
    ops = fs
      .readFileSync(trace, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
  });
  after(() => server?.close());

  /** One run of the task in `dir` (workspace ws/, log task.jsonl, config and cache beside them). */
  function keel(dir: string, node: string[], env: Record<string, string>, command: string[] = []) {
    const ws = path.join(dir, 'ws');
    if (!fs.existsSync(ws)) writeWorkspace(ws);
    const args = command.length
      ? command
      : ['run', '--workspace', ws, '--base-url', server.anthropicBaseURL, '--approve', 'all', '--log', path.join(dir, 'task.jsonl'), TASK];
    return runNode([...node, cli, ...args], { XDG_CONFIG_HOME: path.join(dir, 'config'), XDG_CACHE_HOME: path.join(dir, 'cache'), ...env });
  }

  it('leaves a readable log, whole files, no process and no temp file behind, and resumes and replays', async () => {
    const points = chosenPoints();
    const total = points.length;
    const began = Date.now();
    const problems: string[] = [];
    const killedAt = new Map<string, number>();
    // Two at a time: each point is a few short processes, mostly waiting on each other.
    const next = async (): Promise<void> => {
      for (let point = points.shift(); point !== undefined; point = points.shift()) {
        const kind = await killAndCheck(point, 2 * ops.length, problems);
        if (kind) killedAt.set(kind, (killedAt.get(kind) ?? 0) + 1);
      }
    };
    await Promise.all([next(), next()]);
    const seconds = Math.round((Date.now() - began) / 1000);
    const kinds = [...killedAt].map(([k, n]) => `${k} ×${n}`).join(', ');
    console.log(`      event kinds at a kill point: ${[...eventKinds].sort().join(', ')}`);
    console.log(`      ${total} of ${2 * ops.length} kill points (${ops.length} durable writes) in ${seconds} s: ${kinds}`);
    assert.deepEqual(problems, []);
  });

  /**
   * Every point before and after each write — or, unless KEEL_FAULTS=all, every write but the task
   * log's, and the log's first write of each kind of event (later appends of the same kinds leave
   * the log in the same shape): each event kind, each write point, in the time CI allows.
   */
  function chosenPoints(): number[] {
    const seen = new Set<string>();
    return ops.flatMap((op, i) => {
      const fresh = (op.types ?? []).filter((t) => !seen.has(t));
      for (const t of fresh) seen.add(t);
      const take = process.env.KEEL_FAULTS === 'all' || op.file !== 'task.jsonl' || fresh.length > 0;
      return take ? [2 * i + 1, 2 * i + 2] : [];
    });
  }

  /** One kill point and every check after it; the kind of write it killed at. */
  async function killAndCheck(point: number, total: number, problems: string[]): Promise<string | undefined> {
    const dir = scratchDir('fault');
    const trace = path.join(dir, 'trace.jsonl');
    const run = await keel(dir, ['--require', KILL_HOOK], { KEEL_KILL_AT: String(point), KEEL_FAULT_TRACE: trace });
    const where = `point ${point}/${total}`;
    if (run.signal !== 'SIGKILL') {
      problems.push(`${where}: the run was not killed (exit ${run.code}): its writes differed from the counting run`);
      return undefined;
    }
    const killed = JSON.parse(fs.readFileSync(trace, 'utf8').trim().split('\n').at(-1)!) as { op: string; file?: string; killed: string };
    for (const t of ops[Math.ceil(point / 2) - 1]?.types ?? []) eventKinds.add(t);
    const kind = `${killed.killed} ${killed.op} ${fileKind(killed.file)}`;
    problems.push(...check(dir, `${where} (${kind})`, false));
    const log = path.join(dir, 'task.jsonl');
    const events = readable(log);
    const live =
      events.some((e) => e.type === 'user_message') && ['running', 'waiting_for_approval', 'executing'].includes(replay(events).status);
    // The approvals come from resume's own command line: the same as the run's.
    const resumeArgs = [
      'resume',
      log,
      '--workspace',
      path.join(dir, 'ws'),
      '--base-url',
      server.anthropicBaseURL,
      '--approve',
      'all',
      '--output',
      'json',
    ];
    const resumed = await keel(dir, [], {}, resumeArgs);
    if (live && !resumedToItsEnd(resumed))
      problems.push(`${where} (${kind}): keel resume exited ${resumed.code}: ${resumed.stdout}${resumed.stderr}`);
    if (!live && resumed.code !== 2) problems.push(`${where} (${kind}): nothing to resume, but keel resume exited ${resumed.code}`);
    problems.push(...check(dir, `${where} (${kind}) after resume`, true));
    // Replay reads the log the same way wherever it was cut: once per kind of kill point, and every fourth point.
    if (!live || (replayedKinds.has(kind) && point % 4 !== 0)) return kind;
    replayedKinds.add(kind);
    const replayed = await keel(dir, [], {}, ['replay', log, '--workspace', start]);
    if (replayed.code !== 0 && replayed.code !== 1)
      problems.push(`${where} (${kind}): keel replay exited ${replayed.code}: ${replayed.stderr}`);
    return kind;
  }

  /**
   * The resumed task reached its end: done (exit 0), or refused (exit 3) only because a call the
   * kill left approved or running was asked again and nobody could answer it (never re-run unasked).
   */
  function resumedToItsEnd(resumed: { code: number | null; stdout: string }): boolean {
    let result: { status?: string; exitCode?: number; refusals?: { unanswered?: boolean }[] };
    try {
      result = JSON.parse(resumed.stdout);
    } catch {
      return false;
    }
    if (resumed.code !== result.exitCode) return false;
    if (result.status === 'done') return resumed.code === 0;
    const refusals = result.refusals ?? [];
    return result.status === 'refused' && resumed.code === 3 && refusals.length > 0 && refusals.every((r) => r.unanswered === true);
  }

  /** What a written file is, for the report: the task log, a workspace file, a checkpoint blob or index. */
  function fileKind(file: string | undefined): string {
    if (file === undefined) return '(an atomic write)';
    if (file === 'task.jsonl') return 'task log';
    if (/^[0-9a-f]{64}$/.test(file)) return 'checkpoint blob';
    if (/^cli-.*\.json$/.test(file)) return 'checkpoint index';
    return file;
  }

  /** The log's events; none when the kill came before its header was whole. */
  function readable(log: string) {
    try {
      return loadLog(log).events;
    } catch {
      return [];
    }
  }

  /** What must hold after a kill (and, `resumed`, after keel resume): the checks of item 10. */
  function check(dir: string, where: string, resumed: boolean): string[] {
    const out: string[] = [];
    const ws = path.join(dir, 'ws');
    const log = path.join(dir, 'task.jsonl');
    if (fs.existsSync(log)) {
      try {
        const loaded = loadLog(log);
        if (loaded.invalid.length > 0) out.push(`${where}: the log has a damaged line ${loaded.invalid[0]!.line}`);
        if (resumed && loaded.torn) out.push(`${where}: the log's last line is torn`);
      } catch (err) {
        if (fs.statSync(log).size > 0) out.push(`${where}: the log does not parse: ${(err as Error).message}`);
      }
    }
    for (const [rel, text] of filesIn(ws)) {
      if (isKeelTempPath(rel)) {
        if (resumed) out.push(`${where}: a temp file is left: ${rel}`);
        continue;
      }
      if (text !== ORIGINAL[rel] && text !== CHANGED[rel])
        out.push(`${where}: ${rel} is neither its original nor its new version (${text.length} chars)`);
    }
    if (resumed && fs.existsSync(path.join(dir, 'cache')))
      for (const rel of filesIn(path.join(dir, 'cache')).keys())
        if (isKeelTempPath(rel)) out.push(`${where}: a temp file is left in the checkpoint store: ${rel}`);
    const alive = processesIn(ws);
    if (alive.length > 0) out.push(`${where}: processes still run in the workspace: ${alive.join(', ')}`);
    return out;
  }
});
