// keel run's task from stdin (`-`) or a file (`--task-file`), and keel continue's message alike:
// read whole, trailing blank lines dropped; an empty, missing, binary or oversized source, or a
// task given twice, is a one-line usage error (exit 2) before anything runs.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { InputError, parseContinueArgs, parseResumeArgs, parseRunArgs, UsageError } from '../../../src/cli/args.js';
import { MAX_TASK_BYTES } from '../../../src/cli/task-source.js';
import { scratchDir } from '../../support/scratch.js';

const ROOT = path.resolve(__dirname, '../../..');
const TSX = pathToFileURL(require.resolve('tsx')).href;
const noStdin = (): Buffer => assert.fail('stdin is not read');

describe('the task from stdin or a file', () => {
  let dir: string;
  beforeEach(() => {
    dir = scratchDir('task-source');
  });

  it('reads - from stdin and --task-file from the file, whole', () => {
    const brief = `Fix the tests.\n${'Details. '.repeat(20_000)}\n\n`;
    const fromStdin = parseRunArgs(['run', '-'], dir, () => Buffer.from(brief));
    assert.equal(fromStdin.task, brief.trimEnd());
    const file = path.join(dir, 'brief.md');
    fs.writeFileSync(file, brief);
    assert.equal(parseRunArgs(['run', '--task-file', file], dir, noStdin).task, brief.trimEnd());
    const next = parseContinueArgs(['task.jsonl', '--task-file', file], dir, noStdin);
    assert.deepEqual([next.log, next.message], ['task.jsonl', brief.trimEnd()]);
    assert.equal(parseContinueArgs(['task.jsonl', '-'], dir, () => Buffer.from('go on\n')).message, 'go on');
  });

  it('refuses an empty, missing, binary or oversized source, and a task given twice', () => {
    const file = path.join(dir, 'brief.md');
    fs.writeFileSync(file, 'x');
    assert.throws(
      () => parseRunArgs(['run', '-'], dir, () => Buffer.from(' \n')),
      (e) => e instanceof UsageError && /stdin is empty/.test(e.message),
    );
    assert.throws(
      () => parseRunArgs(['run', '--task-file', path.join(dir, 'none')], dir, noStdin),
      (e) => e instanceof InputError && /cannot be read \(ENOENT\)/.test(e.message),
    );
    assert.throws(() => parseRunArgs(['run', '--task-file', dir], dir, noStdin), /is not a file/);
    assert.throws(() => parseRunArgs(['run', '-'], dir, () => Buffer.from([0x66, 0, 0x67])), /holds binary data/);
    assert.throws(() => parseRunArgs(['run', '-'], dir, () => Buffer.alloc(MAX_TASK_BYTES + 1, 0x61)), /is over 1 MiB/);
    assert.throws(() => parseRunArgs(['run', '--task-file', file, 'also this'], dir, noStdin), /Give the task once/);
    assert.throws(() => parseResumeArgs(['x.jsonl', '--task-file', file], dir), /keel continue LOG --task-file FILE does/);
  });

  it('runs a task piped into keel run -', () => {
    const ws = path.join(dir, 'ws');
    fs.mkdirSync(ws);
    const env = { ...process.env, XDG_CONFIG_HOME: path.join(dir, 'config'), XDG_CACHE_HOME: path.join(dir, 'cache') };
    const args = [
      `--import=${TSX}`,
      path.join(ROOT, 'src/cli/main.ts'),
      'run',
      '--provider',
      'scripted',
      '--no-checkpoints',
      '--output',
      'json',
      '-',
    ];
    const run = spawnSync(process.execPath, args, { cwd: ws, env, input: 'list the files\n', encoding: 'utf8', timeout: 60_000 });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout).task, 'list the files');
  }).timeout(60_000);
});
