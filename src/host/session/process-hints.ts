// The shown task's background processes, as the panel lists them: each running one with its
// ports and a Stop button. The table tells of every start, new port and end; each change sends
// the list again (a handful of rows, so the whole list is the delta). A Stop click ends the
// process of that name in the shown task only.
import { runtimeProcesses } from '../../compose/background.js';
import type { BackgroundProcesses } from '../../kernel/index.js';
import { visibleText } from '../../kernel/visible-text.js';
import type { ProcessView } from '../../protocol/index.js';

/** The running processes as the view shows them (names and commands are model text: made visible, capped). */
function processViews(table: BackgroundProcesses | undefined): ProcessView[] {
  return (table?.list() ?? [])
    .filter((p) => p.state === 'running')
    .slice(0, 16)
    .map((p) => ({ name: visibleText(p.name).slice(0, 40), ports: p.ports.slice(0, 8), command: visibleText(p.command).slice(0, 200) }));
}

/** Keeps the view's list current while `runtime`'s task is shown; returns the unsubscribe. */
export function followProcesses(runtime: object, show: (views: ProcessView[]) => void): () => void {
  const table = runtimeProcesses(runtime);
  show(processViews(table));
  return table?.subscribe(() => show(processViews(table))) ?? (() => undefined);
}

/** Stop on a row: undefined when it ended, else why nothing was stopped. */
export async function stopShownProcess(runtime: object | undefined, name: string): Promise<string | undefined> {
  const table = runtime ? runtimeProcesses(runtime) : undefined;
  if (!table) return 'no task with background processes is shown';
  try {
    await table.stop(name);
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}
