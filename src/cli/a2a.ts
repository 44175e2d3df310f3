// `keel run`'s remote agents: the user's a2a.json, each --a2a-config file (as trusted as the
// user's own), and the workspace's .keel/a2a.json only with --a2a-workspace (otherwise its agents
// are listed and skipped). Problems are printed to stderr; the run goes on.
import * as path from 'node:path';
import type { A2aAgentConfig } from '../a2a/index.js';
import { a2aFiles, loadA2aConfigs } from '../compose/index.js';
import type { RunOptions } from './args.js';

export function cliA2aAgents(
  o: Pick<RunOptions, 'a2aConfigs' | 'a2aWorkspace'>,
  root: string,
  env: NodeJS.ProcessEnv,
  stderr: NodeJS.WritableStream,
): A2aAgentConfig[] {
  const files = [...a2aFiles(root, env), ...o.a2aConfigs.map((f) => ({ path: path.resolve(f), source: 'user' as const }))];
  const config = loadA2aConfigs(files);
  for (const p of config.problems) stderr.write(`keel: A2A config ${p.file}${p.agent ? ` (agent "${p.agent}")` : ''}: ${p.message}\n`);
  return config.agents.filter((a) => {
    if (a.source === 'user' || o.a2aWorkspace) return true;
    stderr.write(`keel: skipped the workspace's A2A agent "${a.name}" (${a.definition.url}); pass --a2a-workspace to offer it.\n`);
    return false;
  });
}
