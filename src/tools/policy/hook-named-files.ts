// Files a workspace hook runs are protected like the hooks' settings: a write to one asks. A
// hook's command names its script anywhere in the workspace (`sh scripts/check.sh`,
// `"$CLAUDE_PROJECT_DIR"/tools/guard.py`), so the policy reads the workspace's hooks files through
// the Workspace port and looks for the file among the words of their commands. (The approval of
// those hooks also hashes these files' bytes, src/compose/hooks/hook-scripts.ts, so a change a
// test run makes asks again too.)
import type { Workspace } from '../../kernel/index.js';

/** Where a workspace defines hooks (src/compose/hooks/load-hooks.ts reads the same files). */
const WORKSPACE_HOOK_FILES = ['.keel/hooks.json', '.claude/settings.json', '.claude/settings.local.json'];
/** A hooks file larger than this is not read here (the loader refuses it too). */
const HOOK_FILE_MAX_BYTES = 256 * 1024;
/** A command line names at most this many candidate files worth resolving. */
const MAX_WORDS = 64;

/** The words of a command line that could be paths: quotes dropped, the project variables put in. */
export function commandWords(command: string, root: string): string[] {
  const expanded = command.replace(/\$\{?(CLAUDE_PROJECT_DIR|KEEL_PROJECT_DIR)\}?/g, root);
  const words = expanded
    .replace(/["'`]/g, '')
    .split(/[\s;&|<>()]+/)
    .filter((w) => w !== '' && !w.startsWith('-') && !w.includes('$'));
  return [...new Set(words)].slice(0, MAX_WORDS);
}

/** The hooks file whose command runs `rel` (canonical, workspace-relative), or undefined. */
export async function hookRunning(ws: Workspace, rel: string): Promise<string | undefined> {
  const name = rel.split('/').pop() ?? '';
  for (const file of WORKSPACE_HOOK_FILES) {
    const commands = await hookCommands(ws, file);
    for (const command of commands) {
      for (const word of commandWords(command, ws.root)) {
        if (!word.endsWith(name)) continue;
        if ((await ws.resolve(word).catch(() => undefined)) === rel) return file;
      }
    }
  }
  return undefined;
}

async function hookCommands(ws: Workspace, file: string): Promise<string[]> {
  const stat = await ws.stat(file).catch(() => undefined);
  if (stat?.type !== 'file' || stat.size > HOOK_FILE_MAX_BYTES) return [];
  try {
    const data: unknown = JSON.parse(new TextDecoder().decode(await ws.readFile(file)));
    return commandsIn((data as { hooks?: unknown } | null)?.hooks);
  } catch {
    return [];
  }
}

/** Every `command` string in a hooks object: `{Point: [{hooks: [{command}]}]}`. */
function commandsIn(hooks: unknown): string[] {
  if (typeof hooks !== 'object' || hooks === null) return [];
  const out: string[] = [];
  for (const groups of Object.values(hooks)) {
    if (!Array.isArray(groups)) continue;
    for (const group of groups) {
      const handlers = (group as { hooks?: unknown } | null)?.hooks;
      if (!Array.isArray(handlers)) continue;
      for (const h of handlers) {
        const command = (h as { command?: unknown } | null)?.command;
        if (typeof command === 'string') out.push(command);
      }
    }
  }
  return out;
}
