// The files a workspace hook runs: every word of its command line that names a file in the
// workspace (`.claude/hooks/guard.sh`, `"$CLAUDE_PROJECT_DIR"/scripts/check.py`), read with a hash
// of its bytes. The user allows a hook's definition *and* these bytes (hooksHash), so a test run
// or the model rewriting the script behind an allowed hook asks again rather than running the
// new code under the old approval. Words that are not workspace files (`node`, `-c`, `$1`) count
// for nothing; the command text itself is in the definition's hash already.
import { createHash } from 'node:crypto';
import type { Workspace } from '../../kernel/index.js';
import { commandWords } from '../../tools/index.js';
import type { HookDefinition } from './hook-file.js';

/** A script larger than this is hashed as "too large", which no rewrite keeps stable. */
const SCRIPT_MAX_BYTES = 4 * 1024 * 1024;

export interface HookScript {
  /** Workspace-relative, canonical. */
  path: string;
  sha256: string;
}

/** The workspace files the hooks' commands name, each once, in order of first mention. */
export async function hookScripts(workspace: Workspace, hooks: readonly HookDefinition[]): Promise<HookScript[]> {
  const seen = new Map<string, HookScript>();
  for (const hook of hooks) {
    for (const word of commandWords(hook.command, workspace.root)) {
      const script = await scriptAt(workspace, word);
      if (script && !seen.has(script.path)) seen.set(script.path, script);
    }
  }
  return [...seen.values()];
}

async function scriptAt(workspace: Workspace, word: string): Promise<HookScript | undefined> {
  let rel: string;
  try {
    rel = await workspace.resolve(word);
  } catch {
    return undefined;
  }
  const stat = await workspace.stat(rel).catch(() => undefined);
  if (stat?.type !== 'file') return undefined;
  if (stat.size > SCRIPT_MAX_BYTES) return { path: rel, sha256: `too-large:${stat.size}` };
  const bytes = await workspace.readFile(rel).catch(() => undefined);
  return bytes ? { path: rel, sha256: createHash('sha256').update(bytes).digest('hex') } : undefined;
}
