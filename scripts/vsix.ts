// Packaging Keel as a VSIX, shared by scripts/package-vsix.ts, scripts/start.ts and the test
// harness (test/support/code-server.ts re-exports it): a production build in a staging folder,
// `vsce package`, then a check that the package holds exactly the files that run.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

import wasmFiles from '../src/codeintel/wasm-files.json' with { type: 'json' };

const run = promisify(execFile);
export const repoRoot = resolve(import.meta.dirname, '..');

/**
 * The files the VSIX ships, as paths in the repository after a build: what the extension host
 * and the webview load, and what the Marketplace shows. `.vscodeignore` lets in these and no
 * other; dist/cli.js (the `keel` command), source maps and media sources stay out.
 */
export const SHIPPED_FILES = [
  'package.json',
  'README.md',
  // The Marketplace's Changelog tab.
  'CHANGELOG.md',
  'LICENSE',
  'media/icon.svg',
  'dist/extension.js',
  // The code index's parse worker (src/codeintel/parse-worker.ts), started by the extension.
  'dist/parse-worker.js',
  'dist/webview.js',
  'dist/webview.css',
  'dist/codicons/codicon.css',
  'dist/codicons/codicon.ttf',
  // The code index's tree-sitter runtime and grammars (esbuild.mjs copies them).
  ...wasmFiles.map((name) => `dist/tree-sitter/${name}`),
];

/** How vsce renames the files the Marketplace shows. */
const VSCE_NAMES: Record<string, string> = { 'README.md': 'readme.md', 'CHANGELOG.md': 'changelog.md', LICENSE: 'LICENSE.txt' };

/** The entries of the packaged zip: vsce's manifests, and the shipped files under extension/ (readme, changelog and licence renamed). */
export const VSIX_ENTRIES: readonly string[] = [
  'extension.vsixmanifest',
  '[Content_Types].xml',
  ...SHIPPED_FILES.map((f) => `extension/${VSCE_NAMES[f] ?? f}`),
];

const tempDirs = new Set<string>();
process.once('exit', () => {
  if (process.env.KEEL_KEEP_TEMP) return;
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

/** A fresh temp folder, removed when the process exits (unless KEEL_KEEP_TEMP or `keep`). */
export function makeTempDir(prefix: string, keep = false): string {
  const dir = mkdtempSync(join(tmpdir(), `keel-${prefix}-`));
  if (!keep) tempDirs.add(dir);
  return dir;
}

/** How to build: `testApi` makes `activate` return the test API (esbuild.mjs --test-api). */
export interface BuildOptions {
  testApi?: boolean;
}

/**
 * Builds Keel for production in a staging folder (package.json, the build, media/), not the
 * repo's dist/, so it neither clobbers nor picks up another engineer's development build.
 * The caller removes the folder (it is removed at exit unless KEEL_KEEP_TEMP).
 */
export async function stageBuild({ testApi = false }: BuildOptions = {}): Promise<string> {
  const stage = makeTempDir('stage');
  // esbuild follows the links back to the repo, so imports resolve from its node_modules.
  symlinkSync(join(repoRoot, 'src'), join(stage, 'src'));
  symlinkSync(join(repoRoot, 'media'), join(stage, 'media'));
  for (const file of ['.vscodeignore', 'LICENSE', 'README.md', 'CHANGELOG.md']) {
    if (existsSync(join(repoRoot, file))) cpSync(join(repoRoot, file), join(stage, file));
  }
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(vsixManifest(), null, 2)}\n`);
  try {
    const flags = ['--production', ...(testApi ? ['--test-api'] : [])];
    await run(process.execPath, [join(repoRoot, 'esbuild.mjs'), ...flags], { cwd: stage, maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    throw new Error(`esbuild.mjs --production failed: ${failure(error)}`);
  }
  // Real files, not a link to the repo's folder: vsce packages them, VS Code serves them.
  unlinkSync(join(stage, 'media'));
  cpSync(join(repoRoot, 'media'), join(stage, 'media'), { recursive: true });
  return stage;
}

/**
 * package.json as the VSIX takes it: without `files`, which says what npm's tarball ships (the
 * CLI) — vsce refuses a manifest with both `files` and a .vscodeignore, and the VSIX's own list
 * is .vscodeignore.
 */
function vsixManifest(): Record<string, unknown> {
  const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as Record<string, unknown>;
  delete manifest.files;
  return manifest;
}

/** The package of each kind of build, made once per process: production, and with the test API. */
const keelVsix = new Map<boolean, Promise<string>>();

/**
 * Builds Keel for production and packages it (the bundle carries its dependencies, hence
 * --no-dependencies). Once per process and kind; KEEL_VSIX reuses a prebuilt file (for the
 * integration tests it must be a `--test-api` one). Fails when the package holds a file outside
 * VSIX_ENTRIES or lacks one.
 */
export function packageVsix({ keep = false, testApi = false }: BuildOptions & { keep?: boolean } = {}): Promise<string> {
  const made = keelVsix.get(testApi);
  if (made) return made;
  const making = (async () => {
    if (process.env.KEEL_VSIX && existsSync(process.env.KEEL_VSIX)) return process.env.KEEL_VSIX;
    const stage = await stageBuild({ testApi });
    const out = join(makeTempDir('vsix', keep), 'keel.vsix');
    await vscePackage(stage, out);
    if (!process.env.KEEL_KEEP_TEMP) rmSync(stage, { recursive: true, force: true });
    checkEntries(zipEntries(readFileSync(out)), VSIX_ENTRIES);
    return out;
  })();
  keelVsix.set(testApi, making);
  return making;
}

/** Throws, naming the files, unless `found` is exactly `expected`. */
export function checkEntries(found: readonly string[], expected: readonly string[]): void {
  const extra = found.filter((f) => !expected.includes(f));
  const missing = expected.filter((f) => !found.includes(f));
  if (extra.length === 0 && missing.length === 0) return;
  const say = (label: string, files: string[]) => (files.length ? `\n  ${label}: ${files.join(', ')}` : '');
  throw new Error(`the VSIX does not hold exactly the files that run:${say('not expected', extra)}${say('missing', missing)}`);
}

/** The file names in a zip, read from its central directory. */
export function zipEntries(zip: Buffer): string[] {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error('not a zip file: no end of central directory');
  const names: string[] = [];
  let at = zip.readUInt32LE(end + 16);
  for (let i = zip.readUInt16LE(end + 10); i > 0; i--) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`damaged zip: no central directory entry at ${at}`);
    const nameLength = zip.readUInt16LE(at + 28);
    names.push(zip.toString('utf8', at + 46, at + 46 + nameLength));
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return names;
}

const vsceBin = (): string => join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce');

export async function vscePackage(folder: string, out: string): Promise<void> {
  try {
    // The README's pictures (docs/images) are for readers of the repository; they are not
    // packaged, and no repository URL exists to rewrite their links to: leave the links as written.
    await run(
      process.execPath,
      [vsceBin(), 'package', '--no-dependencies', '--allow-missing-repository', '--no-rewrite-relative-links', '-o', out],
      {
        cwd: folder,
        env: { ...process.env, VSCE_TELEMETRY: 'false' },
        maxBuffer: 16 * 1024 * 1024,
      },
    );
  } catch (error) {
    throw new Error(`vsce package failed in ${folder}: ${failure(error)}`);
  }
}

/** What `vsce ls` would package from `folder`, one path per entry. */
export async function vsceList(folder: string): Promise<string[]> {
  const { stdout } = await run(process.execPath, [vsceBin(), 'ls', '--no-dependencies'], {
    cwd: folder,
    env: { ...process.env, VSCE_TELEMETRY: 'false' },
  });
  return stdout.split('\n').filter(Boolean);
}

/** The useful end of a failed command's output. */
export function failure(error: unknown): string {
  const e = error as { stdout?: string; stderr?: string; message?: string };
  const text = `${e.stderr ?? ''}${e.stdout ?? ''}`.trim() || e.message || String(error);
  return text.length > 4000 ? `…${text.slice(-4000)}` : text;
}
