// The end of a `keel run` for what the task left running in the background: each process is
// named with its ports and how it ended, then every one still running is stopped — a task's
// processes never outlive its run (the keeper covers a Keel that is killed instead).
import { runtimeProcesses } from '../compose/background.js';
import { describeProcess } from '../tools/index.js';

export async function endBackground(runtime: object, stderr: { write(text: string): unknown }): Promise<void> {
  const table = runtimeProcesses(runtime);
  const all = table?.list() ?? [];
  if (!table || all.length === 0) return;
  stderr.write(`keel: background processes of this task:\n${all.map((p) => `  ${describeProcess(p)}\n`).join('')}`);
  const running = all.filter((p) => p.state === 'running').length;
  await table.stopAll();
  if (running > 0) stderr.write(`keel: stopped ${running} background process(es) with the task\n`);
}
