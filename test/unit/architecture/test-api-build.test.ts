// A production build hands no other extension a way into Keel: `activate`'s test API (what
// src/vscode/test-api.ts declares, made in src/vscode/build/register.ts) exists only in a
// `--test-api` build. The production bundle, built as packageVsix builds it, must hold none of
// the API's own member names; which names are the API's own is read from the source, so the
// check follows the interface as it grows.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, stageBuild } from '../../../scripts/vsix.js';

const API_FILE = join(repoRoot, 'src', 'vscode', 'test-api.ts');
const MAKER_FILE = join(repoRoot, 'src', 'vscode', 'build', 'register.ts');

/** The member names of the KeelApi interface. */
function apiMembers(source: string): string[] {
  const body = /export interface KeelApi \{([\s\S]*?)\n\}/.exec(source)?.[1];
  if (!body) throw new Error('no `export interface KeelApi { … }` in test-api.ts');
  return [...body.matchAll(/^ {2}(\w+)\??[(:]/gm)].map((m) => m[1]!);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The members whose names appear in no source file but the API's own two, so a bundle holding one holds the API. */
function apiOnlyNames(): string[] {
  const others = sourceFiles(join(repoRoot, 'src'))
    .filter((file) => file !== API_FILE && file !== MAKER_FILE)
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
  return apiMembers(readFileSync(API_FILE, 'utf8')).filter((name) => !new RegExp(`\\b${name}\\b`).test(others));
}

describe('the test API in builds', function () {
  this.timeout(180_000);

  it('names members of its own that the check can look for', () => {
    const names = apiOnlyNames();
    assert.ok(names.includes('setProviderOverride'), `API-only names: ${names.join(', ')}`);
  });

  it('is left out of the production bundle: activate returns nothing another extension could use', async () => {
    const stage = await stageBuild();
    try {
      const bundle = readFileSync(join(stage, 'dist', 'extension.js'), 'utf8');
      assert.match(bundle, /\bactivate\b/, 'the bundle exports activate');
      const found = apiOnlyNames().filter((name) => bundle.includes(name));
      assert.deepEqual(found, [], `the production bundle holds the test API's ${found.join(', ')}`);
    } finally {
      rmSync(stage, { recursive: true, force: true });
    }
  });
});
