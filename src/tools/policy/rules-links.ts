// A rules file is often a link (AGENTS.md -> CLAUDE.md, or -> docs/rules.md): its text is the
// target's, so a write to the target changes every later task's system prompt as much as a
// write to AGENTS.md would. The policy asks about a write to a file that a rules file in the
// workspace root, or in a folder above the file, points at. (The sandbox does the same for a
// test run: workspace-scan.ts binds a protected link's target read-only.)
import type { Workspace } from '../../kernel/index.js';

/** The names that are rules files wherever they sit (protected-paths.ts lists the same). */
const RULES_NAMES = ['AGENTS.md', 'CLAUDE.md', 'GEMINI.md'];

/** The rules file that is a link to `rel` (canonical, workspace-relative), or undefined. */
export async function rulesFileLinkingTo(ws: Workspace, rel: string): Promise<string | undefined> {
  const parts = rel.split('/');
  const folders = parts.map((_, i) => parts.slice(0, i).join('/'));
  for (const folder of folders) {
    for (const name of RULES_NAMES) {
      const candidate = folder ? `${folder}/${name}` : name;
      if (candidate === rel) continue;
      const target = await ws.resolve(candidate).catch(() => undefined);
      if (target === rel) return candidate;
    }
  }
  return undefined;
}
