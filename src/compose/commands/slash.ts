// `/name args` → what is sent: the command's prompt with the arguments, and the agent profile
// it runs as (the command's `agent`, its `tools` narrowing that agent's or the run's, its `model`
// replacing the agent's). One function for both hosts, so `keel run "/fix-tests"` and the composer expand alike.
import type { AgentProfile } from '../../kernel/index.js';
import type { LoadedAgent } from '../agents/load-agents.js';
import { commandCall, expandCommand } from './command-file.js';
import type { LoadedCommand } from './load-commands.js';

export type SlashExpansion =
  | { type: 'plain' }
  | { type: 'expanded'; text: string; agent?: AgentProfile }
  | { type: 'error'; message: string };

export function expandSlash(text: string, commands: readonly LoadedCommand[], agents: readonly LoadedAgent[]): SlashExpansion {
  const call = commandCall(text);
  if (!call) return { type: 'plain' };
  const command = commands.find((c) => c.name === call.name);
  if (!command) {
    const names = commands.map((c) => `/${c.name}`).join(', ') || 'none';
    return { type: 'error', message: `there is no command "/${call.name}" (the commands are: ${names}).` };
  }
  const expanded = expandCommand(command.prompt, call.args);
  const named = command.agent === undefined ? undefined : agents.find((a) => a.name === command.agent);
  if (command.agent !== undefined && !named)
    return { type: 'error', message: `/${command.name} (${command.file}) names the agent "${command.agent}", which is not loaded.` };
  const agent = profileOf(command, named);
  return { type: 'expanded', text: expanded, ...(agent ? { agent } : {}) };
}

/** The agent the command runs as; its tools only narrow (an agent's list, or the run's). */
function profileOf(command: LoadedCommand, agent: LoadedAgent | undefined): AgentProfile | undefined {
  const tools = command.tools === undefined ? agent?.tools : (agent?.tools?.filter((t) => command.tools!.includes(t)) ?? command.tools);
  // The command's model, else its agent's (the runtime maps the name, or keeps the task's model).
  const model = command.model ?? agent?.model;
  if (agent)
    return {
      name: agent.name,
      file: agent.file,
      instructions: agent.instructions,
      ...(tools ? { tools } : {}),
      ...(model ? { model } : {}),
    };
  if (!tools && !model) return undefined;
  return { name: `/${command.name}`, file: command.file, instructions: '', ...(tools ? { tools } : {}), ...(model ? { model } : {}) };
}
