// Loads tree-sitter and its grammars: VS Code's own prebuilt WebAssembly builds
// (@vscode/tree-sitter-wasm: the runtime and every grammar built together by one tree-sitter
// version, so they always agree on the ABI). The runtime starts once per thread (the parse workers of
// parse-pool.ts have their own); each grammar
// loads on first use. Bundled hosts find the .wasm files beside their script (esbuild.mjs copies
// them to dist/tree-sitter); from source they come from the package.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Language, Parser } from '@vscode/tree-sitter-wasm';
import type { GrammarName } from './languages.js';

let started: Promise<string> | undefined;
const parsers = new Map<GrammarName, Promise<Parser>>();

/** The folder holding tree-sitter.wasm and the grammars: beside a bundle, else the package's (from source). */
function grammarFolder(): string {
  const candidates = [join(__dirname, 'tree-sitter'), join(__dirname, '..', '..', 'node_modules', '@vscode', 'tree-sitter-wasm', 'wasm')];
  const found = candidates.find((dir) => existsSync(join(dir, 'tree-sitter.wasm')));
  if (!found) throw new Error(`tree-sitter's WebAssembly files are missing (looked in ${candidates.join(' and ')})`);
  return found;
}

/** Starts tree-sitter's runtime (once per thread); resolves to the folder of the grammars. */
export function startRuntime(): Promise<string> {
  started ??= (async () => {
    const folder = grammarFolder();
    await Parser.init({ locateFile: (file: string) => join(folder, file) });
    return folder;
  })();
  return started;
}

/** A parser for the grammar (one per grammar and process: parsing is synchronous, so it is never shared mid-parse). */
export function parserFor(grammar: GrammarName): Promise<Parser> {
  let parser = parsers.get(grammar);
  if (!parser) {
    parser = (async () => {
      const folder = await startRuntime();
      const language = await Language.load(join(folder, `tree-sitter-${grammar}.wasm`));
      const p = new Parser();
      p.setLanguage(language);
      return p;
    })();
    // A grammar that failed to load is tried again on the next call, not cached as a failure.
    parser.catch(() => parsers.delete(grammar));
    parsers.set(grammar, parser);
  }
  return parser;
}
