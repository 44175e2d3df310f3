// `keel replay LOG`: loads a recorded task log, prepares a scratch copy of the workspace in the
// task's starting state (a copy of --workspace DIR, or the current folder with every recorded
// checkpoint put back to its prior bytes from the checkpoint store), replays the log there
// through the current build (src/cli/replay.ts) and prints each difference. The user's folders
// are never written: the replay runs in the scratch copy, removed afterwards.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { loadLog } from '../node/jsonl-store.js';
import { parsePolicyFlags, UsageError } from './args.js';
import { cliCheckpoints } from './checkpoints.js';
import { replayLog, type ReplayPolicySettings, type ReplayReport } from './replay.js';
import { copyWorkspace, startFromCheckpoints } from './replay-start.js';

export interface ReplayIo {
  stdout: NodeJS.WritableStream;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** Exit status: 0 replays clean, 1 differences. Usage problems throw UsageError. */
export async function runReplayCommand(argv: string[], io: ReplayIo): Promise<number> {
  const options = parseReplayArgs(argv);
  const logPath = path.resolve(io.cwd, options.log);
  if (!fs.existsSync(logPath) || !fs.statSync(logPath).isFile())
    throw new UsageError(`${options.log} is not a file: give a task log written by keel run --log.`);
  const loaded = loadLog(logPath);
  if (!loaded.events.some((e) => e.type === 'user_message')) throw new UsageError(`${options.log} holds no recorded task.`);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-replay-'));
  try {
    const work = path.join(scratch, 'workspace');
    if (options.workspace !== undefined) copyWorkspace(folderOrUsage(path.resolve(io.cwd, options.workspace), '--workspace'), work);
    else await startFromCheckpoints(loaded.events, () => cliCheckpoints(io.cwd, io.env, 'replay'), io.cwd, work);
    const report = await replayLog(loaded.events, work, options.until, options.policy);
    io.stdout.write(options.json ? `${JSON.stringify(report)}\n` : describe(report));
    return report.differences.length === 0 ? 0 : 1;
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

interface ReplayOptions {
  log: string;
  workspace: string | undefined;
  until: number;
  json: boolean;
  policy: ReplayPolicySettings;
}

function parseReplayArgs(argv: string[]): ReplayOptions {
  const parsed = parseReplayFlags(argv);
  const { values, positionals } = parsed;
  if (positionals.length !== 1) throw new UsageError('Give exactly one log: keel replay LOG [--workspace DIR].');
  const until = values.until === undefined ? Number.POSITIVE_INFINITY : Number(values.until);
  if (!Number.isInteger(until) && until !== Number.POSITIVE_INFINITY)
    throw new UsageError(`--until takes an event's sequence number, a whole number (got "${values.until}").`);
  return { log: positionals[0]!, workspace: values.workspace, until, json: values.json === true, policy: parsePolicyFlags(values) };
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

function describe(report: ReplayReport): string {
  if (report.differences.length === 0) return `replays clean (${report.steps} steps, ${report.calls} tool calls)\n`;
  const lines = report.differences.map(
    (d) =>
      `${d.frameName ? `${d.frameName} (frame ${d.frame})  ` : ''}step ${d.step}  seq ${d.seq}  ${d.kind}  ${d.tool}\n  recorded: ${oneLine(d.recorded)}\n  replayed: ${oneLine(d.replayed)}`,
  );
  return `${lines.join('\n')}\n${report.differences.length} difference(s) in ${report.steps} steps\n`;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 300 ? `${flat.slice(0, 300)}…` : flat;
}
