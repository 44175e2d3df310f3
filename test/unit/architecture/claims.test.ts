// ARCHITECTURE.md (and the contributor guides beside it) cite files by path — src/…, test/…,
// bench/…, scripts/… — and by name in backticks (`event-log.ts`, `skills/skill-tools.ts`). A
// file moved or deleted leaves the document wrong without anyone noticing; here each cited path
// must exist (a glob must match a tracked file; what git ignores, such as bench/results/, is what
// a run writes and is not checked) and each cited name must be some tracked file's name or the
// end of its path.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../../scripts/vsix.js';

const DOCUMENTS = ['ARCHITECTURE.md', 'CONTRIBUTING.md', 'AGENTS.md'];

/** Files the documents name as a user's workspace holds them (rules, hooks), not Keel's own. */
const WORKSPACE_FILES = new Set(['CLAUDE.md', 'GEMINI.md', 'settings.local.json']);

const ROOTS = ['src', 'test', 'bench', 'scripts', 'media', 'docs', 'examples', 'schemas', 'bin'];
const CITED_PATH = new RegExp(String.raw`(?<![\w./-])((?:${ROOTS.join('|')})/[\w.*/-]*[\w*/])`, 'g');
const CITED_NAME = /`([\w.*/-]+\.(?:ts|js|mjs|json|jsonc|md|css|sh))`/g;

const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: repoRoot, encoding: 'utf8' })
  .split('\n')
  .filter(Boolean);

/** A glob's `*` as any run of characters within one path segment. */
function globToRegExp(glob: string): RegExp {
  const escaped = glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*');
  return new RegExp(`(^|/)${escaped}$`);
}

/** The paths git ignores (output a build or a bench writes, not files to keep), in one call. */
function ignored(paths: readonly string[]): Set<string> {
  if (paths.length === 0) return new Set();
  try {
    const out = execFileSync('git', ['check-ignore', '--no-index', '--stdin'], {
      cwd: repoRoot,
      input: paths.join('\n'),
      encoding: 'utf8',
    });
    return new Set(out.split('\n').filter(Boolean));
  } catch {
    return new Set(); // exit 1: none of them is ignored
  }
}

function pathExists(cited: string): boolean {
  if (cited.includes('*')) return tracked.some((file) => globToRegExp(cited.replace(/\/$/, '')).test(file));
  return existsSync(join(repoRoot, cited));
}

function nameExists(cited: string): boolean {
  if (WORKSPACE_FILES.has(cited)) return true;
  if (cited.includes('*')) return tracked.some((file) => globToRegExp(cited).test(file));
  return tracked.some((file) => file === cited || file.endsWith(`/${cited}`));
}

/** What a document cites that is not in the repository. */
function staleCitations(text: string): string[] {
  const paths = [...text.matchAll(CITED_PATH)].map((m) => m[1]!).filter((p) => !pathExists(p));
  const names = [...text.matchAll(CITED_NAME)].map((m) => m[1]!).filter((n) => !n.startsWith('.') && !nameExists(n));
  const missing = [...new Set([...paths, ...names])];
  const output = ignored(missing);
  return missing.filter((cited) => !output.has(cited));
}

describe('what the architecture and contributor documents cite', () => {
  for (const document of DOCUMENTS) {
    it(`${document} cites only files that exist`, () => {
      const text = readFileSync(join(repoRoot, document), 'utf8');
      assert.deepEqual(staleCitations(text), [], `${document} cites files that are not in the repository`);
    });
  }

  it('catches a moved file, a bare name and a glob that match nothing', () => {
    const text = 'see src/kernel/no-such-file.ts, `no-such-name.ts`, test/support/*-nowhere.ts and `src/kernel/loop.ts`';
    assert.deepEqual(staleCitations(text), ['src/kernel/no-such-file.ts', 'test/support/*-nowhere.ts', 'no-such-name.ts']);
  });
});
