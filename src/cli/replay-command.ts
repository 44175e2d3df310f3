// `keel replay LOG`: loads a recorded task log, prepares a scratch copy of the workspace in the
// task's starting state (a copy of --workspace DIR, or the current folder with every recorded
// checkpoint put back to its prior bytes from the checkpoint store), replays the log there
// through the current build (src/compose/replay, as Keel: Replay Task does) and prints each difference. The user's folders
// are never written: the replay runs in the scratch copy, removed afterwards. A log is data, even
// one from someone else: its commands run only in the OS sandbox over the copy (none runs where
// there is no sandbox), and its header's approvals are only what the verdicts are compared with.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError } from './cli-errors.js';
import { hasPolicyFlags, parsePolicyFlags } from './flag-values.js';
import { readTaskLog } from './task-log.js';
import { cliCheckpoints } from './checkpoints.js';
import { replayLog, type ReplayPolicySettings, type ReplayReport } from '../compose/replay/replay.js';
import { copyWorkspace, ReplayStartError, startFromCheckpoints } from '../compose/replay/replay-start.js';

export interface ReplayIo {
  stdout: NodeJS.WritableStream;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/**
 * Exit status: 0 replays clean, 1 differences. What cannot be replayed — bad usage (UsageError),
 * an unreadable log or a damaged or unknown line in it (InputError, naming the line) — exits 2.
 */
export async function runReplayCommand(argv: string[], io: ReplayIo): Promise<number> {
  const options = parseReplayArgs(argv);
  const loaded = readTaskLog(path.resolve(io.cwd, options.log), options.log);
  const policy = options.policy ?? loaded.policy;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-replay-'));
  try {
    const work = path.join(scratch, 'workspace');
    if (options.workspace !== undefined) copyWorkspace(folderOrUsage(path.resolve(io.cwd, options.workspace), '--workspace'), work);
    else await startOrUsage(loaded.events, () => cliCheckpoints(io.cwd, io.env, 'replay'), io.cwd, work);
    const report = await replayLog(loaded.events, work, options.until, policy);
    const source: PolicySource = options.policy ? 'flags' : loaded.policy ? 'log' : 'none';
    const torn = loaded.torn ? { line: loaded.torn.line } : undefined;
    io.stdout.write(
      options.json ? `${JSON.stringify({ ...report, policy: source, ...(torn ? { torn } : {}) })}\n` : describe(report, source, torn),
    );
    return report.differences.length === 0 ? 0 : 1;
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** The starting workspace from the checkpoints; when it cannot be had, a usage error says what to give. */
async function startOrUsage(...args: Parameters<typeof startFromCheckpoints>): Promise<void> {
  try {
    await startFromCheckpoints(...args);
  } catch (err) {
    throw err instanceof ReplayStartError ? new UsageError(err.message) : err;
  }
}

/** Where the approvals and command rules the replay decided with came from. */
type PolicySource = 'flags' | 'log' | 'none';

interface ReplayOptions {
  log: string;
  workspace: string | undefined;
  until: number;
  json: boolean;
  /** Undefined: no policy flag was given, so the log's header decides. */
  policy: ReplayPolicySettings | undefined;
}

function parseReplayArgs(argv: string[]): ReplayOptions {
  const parsed = parseReplayFlags(argv);
  const { values, positionals } = parsed;
  if (positionals.length !== 1) throw new UsageError('Give exactly one log: keel replay LOG [--workspace DIR].');
  const until = values.until === undefined ? Number.POSITIVE_INFINITY : Number(values.until);
  if (!Number.isInteger(until) && until !== Number.POSITIVE_INFINITY)
    throw new UsageError(`--until takes an event's sequence number, a whole number (got "${values.until}").`);
  const policy = hasPolicyFlags(values) ? parsePolicyFlags(values) : undefined;
  return { log: positionals[0]!, workspace: values.workspace, until, json: values.json === true, policy };
}

function parseReplayFlags(args: string[]) {
  try {
    return parseArgs({
      args,
      allowPositionals: true,
      options: {
        workspace: { type: 'string' },
        until: { type: 'string' },
        json: { type: 'boolean' },
        approve: { type: 'string' },
        'allow-command': { type: 'string', multiple: true },
        'deny-command': { type: 'string', multiple: true },
      },
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

function folderOrUsage(dir: string, flag: string): string {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new UsageError(`${flag} ${dir} is not a folder.`);
  return dir;
}

function describe(report: ReplayReport, source: PolicySource, torn: { line: number } | undefined): string {
  const notes: string[] = [];
  if (source === 'none')
    notes.push(
      "note: the log does not record the run's approvals; policy decisions were compared with nothing pre-approved " +
        '(give --approve, --allow-command, --deny-command as the task ran)',
    );
  if (torn) notes.push(`note: the log's line ${torn.line} was cut off mid-write (the task was interrupted there)`);
  if (report.sandbox.type !== 'ready')
    notes.push(
      `note: no sandbox here (${report.sandbox.reason}): a replay runs commands only in the sandbox, so ${report.notRun.length} recorded command(s) were not run and not compared`,
    );
  for (const c of report.notRun)
    notes.push(`${c.frameName ? `${c.frameName} (frame ${c.frame})  ` : ''}step ${c.step}  seq ${c.seq}  not run  ${c.tool}: no sandbox`);
  for (const c of report.interrupted)
    notes.push(
      `${c.frameName ? `${c.frameName} (frame ${c.frame})  ` : ''}step ${c.step}  seq ${c.seq}  interrupted  ${c.tool}: the recording has no result for it (not compared)`,
    );
  // The verdict first, then what the replay could not compare and why.
  const tail = notes.map((n) => `${n}\n`).join('');
  if (report.differences.length === 0) return `replays clean (${report.steps} steps, ${report.calls} tool calls)\n${tail}`;
  const lines = report.differences.map(
    (d) =>
      `${d.frameName ? `${d.frameName} (frame ${d.frame})  ` : ''}step ${d.step}  seq ${d.seq}  ${d.kind}  ${d.tool}\n  recorded: ${oneLine(d.recorded)}\n  replayed: ${oneLine(d.replayed)}`,
  );
  return `${lines.join('\n')}\n${report.differences.length} difference(s) in ${report.steps} steps\n${tail}`;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 300 ? `${flat.slice(0, 300)}…` : flat;
}
