// Records the replay corpus (test/replay/corpus.json names each task): `keel run` against the
// failing-tests fixer stand-in, in a scratch copy of the task's example, writing the log into
// test/replay/. Run it again when the log format changes: node --import=tsx scripts/record-replay-corpus.ts
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fixerModel } from '../test/e2e/lib/fixer-model.js';
import { spawnKeel } from '../test/support/keel-cli.js';
import { startModelServer } from '../test/support/model-server.js';
import { CORPUS, CORPUS_DIR, EXAMPLES } from '../test/replay/corpus.js';

async function main(): Promise<void> {
  for (const entry of CORPUS) {
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-corpus-'));
    const work = path.join(scratch, 'ws');
    fs.cpSync(path.join(EXAMPLES, entry.example), work, { recursive: true });
    const log = path.join(CORPUS_DIR, entry.log);
    fs.rmSync(log, { force: true });
    const server = await startModelServer(fixerModel());
    try {
      const env = { XDG_CONFIG_HOME: path.join(scratch, 'config'), XDG_CACHE_HOME: path.join(scratch, 'cache') };
      const args = ['run', '--workspace', work, '--base-url', server.anthropicBaseURL, ...entry.flags, '--log', log, entry.task];
      const run = await spawnKeel(args, work, env);
      process.stdout.write(`${entry.log}: exit ${run.code}\n`);
    } finally {
      await server.close();
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  }
}

void main();
