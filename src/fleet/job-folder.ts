// Each attempt at a job gets a folder of its own — `<dir>/jobs/<job id>/<attempt>-<random>/` with
// the workspace in `workspace/`, the event log, the checkpoints and the result beside it — made
// fresh from the job's source: a folder copied, or a repository cloned at its ref. A job handed
// to another worker after a crash starts again in a new folder, never in the half-changed one.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { withoutCredentials } from '../compose/index.js';
import type { FleetJob } from './job.js';

export interface JobFolder {
  dir: string;
  workspace: string;
  log: string;
  checkpoints: string;
  result: string;
}

export function jobFolder(root: string, jobId: string, attempt: number): JobFolder {
  const dir = path.join(root, 'jobs', jobId, `${attempt}-${randomBytes(4).toString('hex')}`);
  return {
    dir,
    workspace: path.join(dir, 'workspace'),
    log: path.join(dir, 'log.jsonl'),
    checkpoints: path.join(dir, 'checkpoints'),
    result: path.join(dir, 'result.json'),
  };
}

/**
 * The local folders a worker lets jobs use: those under these roots, or any (`keel fleet run`,
 * where the jobs file is the user's own). A job from the queue may come from someone else: it
 * must not get a copy of the worker's home folder.
 */
export type AllowedFolders = readonly string[] | 'any';

/** Copies or clones the job's workspace into the folder; throws an Error saying what failed. */
export async function prepareWorkspace(job: FleetJob, folder: JobFolder, allowed: AllowedFolders): Promise<void> {
  fs.mkdirSync(folder.dir, { recursive: true });
  if (job.workspace !== undefined) {
    checkAllowed(job.workspace, allowed);
    return copyFolder(job.workspace, folder.workspace);
  }
  if (job.repo) {
    if (job.repo.url.startsWith('file:')) checkAllowed(new URL(job.repo.url).pathname, allowed);
    return cloneRepo(job.repo.url, job.repo.ref, folder.workspace);
  }
  throw new Error('The job names neither a workspace nor a repo.');
}

function checkAllowed(folder: string, allowed: AllowedFolders): void {
  if (allowed === 'any') return;
  const real = fs.realpathSync.native(path.resolve(folder));
  const inside = allowed.some((root) => {
    const rel = path.relative(fs.realpathSync.native(path.resolve(root)), real);
    return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
  });
  if (!inside) throw new Error(`${folder} is not under a folder this worker allows (--allow-workspace).`);
}

async function copyFolder(source: string, target: string): Promise<void> {
  const stat = await fs.promises.stat(source).catch(() => undefined);
  if (!stat?.isDirectory()) throw new Error(`The workspace ${source} is not a folder on this machine.`);
  // Links are copied as links: the workspace port refuses any that lead outside the copy.
  await fs.promises.cp(source, target, { recursive: true, verbatimSymlinks: true, errorOnExist: true });
}

/**
 * Only the transports a fleet needs are allowed (no `ext::` helper running a command), nothing
 * prompts for a password, and the URL can never be read as an option.
 */
const GIT_SAFETY = [
  '-c',
  'protocol.allow=never',
  ...['https', 'http', 'ssh', 'git', 'file'].flatMap((p) => ['-c', `protocol.${p}.allow=always`]),
];

async function cloneRepo(url: string, ref: string | undefined, target: string): Promise<void> {
  await git([...GIT_SAFETY, 'clone', '--quiet', '--no-checkout', '--', url, target]);
  const commit = ref === undefined ? 'HEAD' : await resolveRef(target, ref);
  await git(['-C', target, 'checkout', '--quiet', '--detach', commit]);
}

/** A remote branch first (a clone has only the default branch locally), then a tag or commit. */
async function resolveRef(repo: string, ref: string): Promise<string> {
  for (const candidate of [`origin/${ref}`, ref]) {
    const sha = await git(['-C', repo, 'rev-parse', '--verify', '--quiet', `${candidate}^{commit}`]).catch(() => '');
    if (sha.trim()) return sha.trim();
  }
  throw new Error(`The repository has no branch, tag or commit "${ref}".`);
}

function git(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      args,
      { env: { ...withoutCredentials(), GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: 'true' }, timeout: 10 * 60_000, maxBuffer: 4 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err)
          reject(
            new Error(
              `git ${args.filter((a) => a !== '-c' && !a.startsWith('protocol.')).join(' ')} failed: ${stderr.trim() || err.message}`,
            ),
          );
        else resolve(stdout);
      },
    );
  });
}

/** Removes the attempt's workspace copy and checkpoints (the log and result stay). */
export async function removeFolder(folder: JobFolder): Promise<void> {
  await fs.promises.rm(folder.workspace, { recursive: true, force: true });
  await fs.promises.rm(folder.checkpoints, { recursive: true, force: true });
}
