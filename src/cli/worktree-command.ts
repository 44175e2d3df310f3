// `keel worktree list|diff|apply|discard NAME`: the person's side of worktree sessions (made by
// `keel run --worktree`). list agrees with `git worktree list` and names the worktrees Keel made
// but no longer tracks (never deleting them); diff prints a session's whole change; apply lands
// it in the main folder without overwriting the main folder's own changes; discard removes the
// worktree and branch after asking once at a terminal (`--yes` when nobody can be asked).
import * as readline from 'node:readline';
import { parseArgs } from 'node:util';
import {
  applySession,
  discardSession,
  findRepo,
  listSessions,
  readRecord,
  type RepoInfo,
  runGit,
  saveRecord,
  sessionChanges,
  type SessionLayout,
  sessionLayout,
  type SessionRecord,
} from '../node/worktrees/index.js';
import { InputError, UsageError } from './args.js';
import { describeOutcome, listingLines } from './worktree-render.js';

export interface WorktreeIo {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

interface Place {
  repo: RepoInfo;
  layout: SessionLayout;
}

export async function runWorktreeCommand(argv: string[], io: WorktreeIo): Promise<number> {
  const [verb, ...rest] = argv;
  const { values, positionals } = worktreeFlags(rest);
  const place = await repoPlace(values.workspace ?? io.cwd, io.env);
  if (verb === 'list') return list(place, io, values.json === true);
  const record = () => namedSession(place, positionals);
  if (verb === 'diff') return diff(record(), io);
  if (verb === 'apply') return apply(place, record(), io, values.merge === true);
  if (verb === 'discard') return discard(place, record(), io, values.yes === true);
  throw new UsageError(`keel worktree takes list, diff, apply or discard (got "${verb ?? ''}").`);
}

function worktreeFlags(args: string[]) {
  try {
    return parseArgs({
      args,
      allowPositionals: true,
      options: { workspace: { type: 'string' }, json: { type: 'boolean' }, merge: { type: 'boolean' }, yes: { type: 'boolean' } },
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

async function repoPlace(folder: string, env: NodeJS.ProcessEnv): Promise<Place> {
  const lookup = await findRepo(runGit, folder);
  if (lookup.type === 'not_repo') throw new InputError(`keel worktree: ${lookup.reason}`);
  return { repo: lookup.repo, layout: sessionLayout(lookup.repo, env) };
}

function namedSession(place: Place, positionals: readonly string[]): SessionRecord {
  if (positionals.length !== 1) throw new UsageError('Name one session: keel worktree diff|apply|discard NAME (see keel worktree list).');
  const name = positionals[0]!;
  const record = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/.test(name) ? readRecord(place.layout, name) : undefined;
  if (!record)
    throw new InputError(`keel worktree: no session named ${JSON.stringify(name)} in ${place.repo.top} (see keel worktree list)`);
  return record;
}

async function list(place: Place, io: WorktreeIo, json: boolean): Promise<number> {
  const listing = await listSessions(runGit, place.repo, place.layout);
  if (json) io.stdout.write(`${JSON.stringify(listing, null, 2)}\n`);
  else for (const line of listingLines(listing)) io.stdout.write(`${line}\n`);
  return 0;
}

async function diff(record: SessionRecord, io: WorktreeIo): Promise<number> {
  const { patch } = await sessionChanges(runGit, record);
  io.stdout.write(patch);
  return 0;
}

async function apply(place: Place, record: SessionRecord, io: WorktreeIo, merge: boolean): Promise<number> {
  const outcome = await applySession(runGit, place.repo.top, record, merge ? 'merge' : 'patch');
  io.stdout.write(`${describeOutcome(record, outcome)}\n`);
  if (outcome.type === 'applied' || outcome.type === 'merged') await saveRecord(place.layout, { ...record, status: 'applied' });
  return outcome.type === 'conflict' || outcome.type === 'merge_conflict' ? 1 : 0;
}

async function discard(place: Place, record: SessionRecord, io: WorktreeIo, yes: boolean): Promise<number> {
  if (!yes) {
    if (!io.stdin.isTTY) throw new InputError(`keel worktree discard ${record.name}: nobody can be asked here; add --yes`);
    if (!(await confirm(io, `Remove ${record.path} and the branch ${record.branch} with its changes? [y/N] `))) {
      io.stdout.write('Kept.\n');
      return 0;
    }
  }
  for (const notice of await discardSession(runGit, place.repo, place.layout, record)) io.stdout.write(`keel: ${notice}\n`);
  io.stdout.write(`Discarded ${record.name}: worktree and ${record.branch} removed.\n`);
  return 0;
}

function confirm(io: WorktreeIo, question: string): Promise<boolean> {
  const rl = readline.createInterface({ input: io.stdin, output: io.stdout });
  return new Promise((resolve) => {
    rl.question(question, (answer) => {
      rl.close();
      resolve(/^y(es)?$/i.test(answer.trim()));
    });
    rl.on('close', () => resolve(false));
  });
}
