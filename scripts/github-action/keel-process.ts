// Runs the keel CLI for the action and reads its JSON result. The task goes in a file
// (--task-file), never through a shell or as an argument keel could read as a flag, and keel
// gets the job's environment without the GitHub token: only this script talks to GitHub.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ActionError } from './github-api.js';

export interface KeelOptions {
  workspace: string;
  config?: string;
  provider?: string;
  model?: string;
  maxCost?: string;
}

export interface RunResult {
  status: string;
  reason: string;
  answer: string;
  filesChanged: { path: string; change: 'created' | 'modified' | 'deleted' }[];
  costUsd?: number;
}

export interface Finding {
  file: string;
  line: number;
  severity: string;
  body: string;
  suggestion?: string;
}

export interface ReviewResult {
  findings: Finding[];
  general: Finding[];
  blocking: number;
}

/** The keel entry: KEEL_ENTRY (the tests run the source), else the built bin/ of this checkout. */
const ENTRY = process.env.KEEL_ENTRY || path.resolve(__dirname, '../../bin/keel.js');
const WITHHELD = new Set(['GITHUB_TOKEN', 'GH_TOKEN', 'INPUT_GITHUB-TOKEN', 'INPUT_TOKEN']);

export async function keelRun(task: string, options: KeelOptions): Promise<RunResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-action-'));
  try {
    const taskFile = path.join(dir, 'task.txt');
    fs.writeFileSync(taskFile, task);
    const args = ['run', '--workspace', options.workspace, '--output', 'json', ...commonFlags(options), '--task-file', taskFile];
    const result = parseJson(await keel(args, options.workspace), 'keel run') as RunResult;
    if (typeof result?.status !== 'string' || !Array.isArray(result.filesChanged)) throw new ActionError('keel run printed no run result');
    return result;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function keelReview(baseSha: string, options: KeelOptions): Promise<ReviewResult> {
  const args = ['review', '--base', baseSha, '--output', 'json', '--workspace', options.workspace, ...reviewFlags(options)];
  const result = parseJson(await keel(args, options.workspace), 'keel review') as ReviewResult;
  if (!Array.isArray(result?.findings) || !Array.isArray(result.general)) throw new ActionError('keel review printed no review result');
  return result;
}

function commonFlags(options: KeelOptions): string[] {
  return [...(options.config ? ['--config', options.config] : []), ...inputFlags(options)];
}

/** The workflow's provider, model and cost inputs; on keel's command line they win over the config file. */
function inputFlags(options: KeelOptions): string[] {
  const flags: string[] = [];
  if (options.provider) flags.push('--provider', options.provider);
  if (options.model) flags.push('--model', options.model);
  if (options.maxCost) flags.push('--max-cost', options.maxCost);
  return flags;
}

/**
 * keel review takes no --config (it is read-only: approvals do not apply), so the model settings
 * of the same file become its flags; the inputs come after and win, as they do for keel run.
 */
function reviewFlags(options: KeelOptions): string[] {
  const flags: string[] = [];
  const config = options.config ? readConfig(options.config) : {};
  for (const [key, flag] of REVIEW_SETTINGS) {
    const value = config[key];
    if (typeof value === 'string' || typeof value === 'number') flags.push(flag, String(value));
  }
  return [...flags, ...inputFlags(options)];
}

const REVIEW_SETTINGS = [
  ['provider', '--provider'],
  ['model', '--model'],
  ['baseUrl', '--base-url'],
  ['maxTurns', '--max-turns'],
  ['maxCost', '--max-cost'],
] as const;

function readConfig(file: string): Record<string, unknown> {
  try {
    const config = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (config && typeof config === 'object' && !Array.isArray(config)) return config;
  } catch {
    // Said below, in one line.
  }
  throw new ActionError(`the config file ${file} is not a JSON object`);
}

/** keel's stdout; its stderr goes to the job's log as it comes (keel keeps secrets out of it). */
function keel(args: string[], cwd: string): Promise<string> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !WITHHELD.has(name.toUpperCase())));
  return new Promise((resolve, reject) => {
    // execArgv carries a loader such as --import=tsx when this script itself runs under one.
    const child = spawn(process.execPath, [...process.execArgv, ENTRY, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.on('error', (err) => reject(new ActionError(`cannot start keel: ${err.message}`)));
    child.on('close', () => resolve(stdout));
  });
}

function parseJson(stdout: string, what: string): unknown {
  try {
    return JSON.parse(stdout);
  } catch {
    throw new ActionError(`${what} printed no JSON result (see its messages above)`);
  }
}
