// Records test/replay/failing-tests-subagents.jsonl (a task with a delegate and a two-task
// delegate_plan, see test/replay/subagents-task.ts) in a scratch copy of the failing-tests
// example. Run it again when the log format changes: node --import=tsx scripts/record-replay-subagents.ts
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { JsonlLogStore } from '../src/node/jsonl-store.js';
import { CORPUS_DIR, EXAMPLES } from '../test/replay/corpus.js';
import { recordSubagentsTask } from '../test/replay/subagents-task.js';

async function main(): Promise<void> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-corpus-'));
  try {
    const work = path.join(scratch, 'ws');
    fs.cpSync(path.join(EXAMPLES, 'failing-tests'), work, { recursive: true });
    const events = await recordSubagentsTask(work);
    const file = path.join(CORPUS_DIR, 'failing-tests-subagents.jsonl');
    fs.rmSync(file, { force: true });
    const log = JsonlLogStore.open(file);
    log.append(events);
    await log.flush();
    await log.close();
    process.stdout.write(`failing-tests-subagents.jsonl: ${events.length} events, ${events.filter((e) => e.frame).length} in frames\n`);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

void main();
