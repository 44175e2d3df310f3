// A message typed as `/name args` in the composer: expanded by the same function as
// `keel run "/name args"` (src/compose/commands/slash.ts), from the commands and agents of the
// task's composed runtime. A message that is no command call is sent as typed.
import { runtimeAgents, runtimeCommands } from '../../compose/runtime.js';
import { commandCall } from '../../compose/commands/command-file.js';
import type { LoadedCommand } from '../../compose/commands/load-commands.js';
import { expandSlash, type SlashExpansion } from '../../compose/commands/slash.js';
import { visibleText } from '../../kernel/visible-text.js';
import type { CommandView } from '../../protocol/index.js';
import type { Task } from '../tasks/task.js';

export async function slashCommand(task: Task, text: string): Promise<SlashExpansion> {
  if (!commandCall(text)) return { type: 'plain' };
  return expandSlash(text, await runtimeCommands(task.runtime), await runtimeAgents(task.runtime));
}

/**
 * The commands the composer completes: names, descriptions and hints as text the view shows
 * safely. The shown task's, else (no task yet, e.g. a new window) what `unshown` lists.
 */
export async function commandViews(
  task: Task | undefined,
  unshown: (() => Promise<readonly LoadedCommand[]>) | undefined,
): Promise<CommandView[]> {
  const shown = (t: string | undefined) => (t === undefined ? {} : { text: visibleText(t).slice(0, 1024) });
  const commands = task ? await runtimeCommands(task.runtime) : ((await unshown?.()) ?? []);
  return commands.map((c) => {
    const description = shown(c.description).text;
    const hint = shown(c.argumentHint).text;
    return { name: c.name, ...(description ? { description } : {}), ...(hint ? { argumentHint: hint } : {}) };
  });
}
