// Keel's folder in the user's config: `$XDG_CONFIG_HOME/keel`, else `~/.config/keel`. The CLI
// and the extension read the same one (skills, memory, mcp.json, a2a.json); a relative
// XDG_CONFIG_HOME is ignored, as the XDG spec asks.
import * as os from 'node:os';
import * as path from 'node:path';

export function keelConfigDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(os.homedir(), '.config');
  return path.join(base, 'keel');
}
