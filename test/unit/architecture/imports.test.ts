// The layer table of ARCHITECTURE.md ("Layers"), enforced: every import in src/ and media/ must be allowed.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';

const ROOT = path.resolve(__dirname, '../../..');

type Layer =
  | 'kernel'
  | 'providers'
  | 'tools'
  | 'node'
  | 'protocol'
  | 'mcp'
  | 'a2a'
  | 'fleet'
  | 'compose'
  | 'codeintel'
  | 'host'
  | 'vscode'
  | 'cli'
  | 'media';

/**
 * Which layers and which packages each layer may import. node:* built-ins are allowed where the
 * table allows the node layer (cli, vscode): that layer is the Node host they compose.
 */
const ALLOWED: Record<Layer, { layers: Layer[]; packages: (string | RegExp)[]; typeOnly?: Layer[] }> = {
  kernel: { layers: ['kernel'], packages: ['zod'] },
  // Claude on the clouds: Anthropic's Bedrock and Vertex SDKs, and Google's auth library for Vertex.
  providers: {
    layers: ['providers', 'kernel'],
    packages: ['@anthropic-ai/sdk', 'openai', '@anthropic-ai/bedrock-sdk', '@anthropic-ai/vertex-sdk', 'google-auth-library'],
  },
  // node-html-markdown: web_fetch's HTML → markdown (a string transform, no network).
  tools: { layers: ['tools', 'kernel'], packages: ['zod', 'diff', 'picomatch/posix', 'node-html-markdown'] },
  node: { layers: ['node', 'kernel'], packages: [/^node:/, /^playwright-core$/] },
  protocol: { layers: ['protocol'], packages: ['zod'], typeOnly: ['kernel'] },
  mcp: { layers: ['mcp', 'kernel'], packages: ['zod', /^@modelcontextprotocol\/sdk\//] },
  // The A2A SDK lives only here, as the MCP SDK lives only in mcp; express serves its JSON-RPC handler.
  a2a: { layers: ['a2a', 'kernel'], packages: ['zod', /^@a2a-js\/sdk(\/|$)/, 'express', /^node:/] },
  // The syntax-tree code index: the only folder that loads tree-sitter (WebAssembly grammars).
  codeintel: { layers: ['codeintel', 'kernel', 'tools'], packages: [/^node:/, '@vscode/tree-sitter-wasm'] },
  // yaml: SKILL.md front matter (compose/skills); zod: the run result's schema. One protocol
  // registry holds MCP and A2A side by side. secretlint: the secret rule set behind the kernel's
  // SecretDetector port (compose/secrets), its types for the rule API it drives.
  compose: {
    layers: ['compose', 'kernel', 'providers', 'tools', 'node', 'mcp', 'a2a', 'codeintel'],
    packages: [/^node:/, 'yaml', 'zod', '@secretlint/secretlint-rule-preset-recommend', '@secretlint/types'],
  },
  // BullMQ and ioredis live only here: the queue, the shared model gate and budget in Redis.
  fleet: { layers: ['fleet', 'kernel', 'compose'], packages: ['zod', 'bullmq', 'ioredis', /^node:/] },
  // The UI-free host: sessions, tasks, the presenter, settings, keys. Never vscode, so it is tested
  // without an editor; src/vscode adapts it to VS Code.
  host: {
    layers: ['host', 'kernel', 'providers', 'tools', 'node', 'protocol', 'mcp', 'a2a', 'compose', 'codeintel'],
    packages: [/^node:/],
  },
  vscode: {
    layers: ['vscode', 'host', 'kernel', 'providers', 'tools', 'node', 'protocol', 'mcp', 'a2a', 'compose', 'codeintel'],
    packages: ['vscode', /^node:/],
  },
  cli: {
    layers: ['cli', 'kernel', 'providers', 'tools', 'node', 'compose', 'mcp', 'a2a', 'fleet', 'codeintel'],
    packages: [/^node:/, /^zod$/],
  },
  media: { layers: ['media', 'protocol'], packages: ['marked', 'dompurify', /^highlight\.js/] },
};

function layerOf(file: string): Layer | undefined {
  const rel = path.relative(ROOT, file).split(path.sep);
  if (rel[0] === 'media') return 'media';
  if (rel[0] === 'src') return rel[1] as Layer;
  return undefined;
}

function sourceFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const full = path.join(dir, d.name);
    if (d.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx|mts|js|mjs)$/.test(d.name) && !d.name.endsWith('.d.ts') ? [full] : [];
  });
}

interface ImportRef {
  spec: string;
  typeOnly: boolean;
}

function importsOf(source: string): ImportRef[] {
  const refs: ImportRef[] = [];
  const re =
    /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]|\brequire\(\s*['"]([^'"]+)['"]\s*\)|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (const m of source.matchAll(re)) {
    const spec = m[3] ?? m[4] ?? m[5];
    if (spec) refs.push({ spec, typeOnly: !!m[2] });
  }
  return refs;
}

function violations(files: string[]): string[] {
  const problems: string[] = [];
  for (const file of files) {
    const layer = layerOf(file);
    if (!layer || !(layer in ALLOWED)) {
      problems.push(`${path.relative(ROOT, file)}: not in a known layer`);
      continue;
    }
    const rule = ALLOWED[layer];
    for (const ref of importsOf(fs.readFileSync(file, 'utf8'))) {
      const problem = check(file, layer, rule, ref);
      if (problem) problems.push(`${path.relative(ROOT, file)}: ${problem}`);
    }
  }
  return problems;
}

function check(file: string, layer: Layer, rule: (typeof ALLOWED)[Layer], ref: ImportRef): string | undefined {
  if (ref.spec.startsWith('.')) {
    const target = path.resolve(path.dirname(file), ref.spec);
    if (path.relative(ROOT, target).startsWith('test')) return `imports test code (${ref.spec})`;
    const to = layerOf(target);
    if (!to) return `imports outside src/ and media/ (${ref.spec})`;
    if (rule.layers.includes(to)) return undefined;
    if (ref.typeOnly && rule.typeOnly?.includes(to)) return undefined;
    return `${layer} may not import ${to} (${ref.spec})`;
  }
  const ok = rule.packages.some((p) => (typeof p === 'string' ? ref.spec === p || ref.spec.startsWith(`${p}/`) : p.test(ref.spec)));
  return ok ? undefined : `${layer} may not import the package "${ref.spec}"`;
}

/** The kernel files each kernel file imports (types included: a type import ties files as well). */
function kernelGraph(files: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = importsOf(fs.readFileSync(file, 'utf8'))
      .filter((ref) => ref.spec.startsWith('.'))
      .map((ref) => path.resolve(path.dirname(file), ref.spec).replace(/\.js$/, '.ts'))
      .map((target) => (fs.existsSync(target) ? target : path.join(target.replace(/\.ts$/, ''), 'index.ts')));
    graph.set(file, targets);
  }
  return graph;
}

/** One import cycle per file that starts one, as the chain of relative paths; none when the graph is a tree of layers. */
function importCycles(graph: Map<string, string[]>): string[] {
  const done = new Set<string>();
  const cycles: string[] = [];
  const visit = (file: string, chain: string[]): void => {
    const at = chain.indexOf(file);
    if (at >= 0) {
      cycles.push([...chain.slice(at), file].map((f) => path.relative(path.join(ROOT, 'src', 'kernel'), f)).join(' → '));
      return;
    }
    if (done.has(file) || !graph.has(file)) return;
    for (const next of graph.get(file)!) visit(next, [...chain, file]);
    done.add(file);
  };
  for (const file of graph.keys()) visit(file, []);
  return cycles;
}

describe('architecture', () => {
  it('keeps every import in src/ and media/ within the layer table', () => {
    const files = [...sourceFiles(path.join(ROOT, 'src')), ...sourceFiles(path.join(ROOT, 'media'))];
    assert.ok(files.length > 10);
    assert.deepEqual(violations(files), []);
  });

  it('catches a forbidden arrow (the check itself can fail)', () => {
    const tmp = path.join(ROOT, 'src', 'kernel', `__probe_${process.pid}.ts`);
    fs.writeFileSync(
      tmp,
      "import * as fs from 'node:fs';\nimport { x } from '../vscode/extension.js';\nexport type { Y } from '@anthropic-ai/sdk';\n",
    );
    try {
      const found = violations([tmp]);
      assert.equal(found.length, 3, found.join('\n'));
    } finally {
      fs.rmSync(tmp);
    }
  });

  it('keeps vscode out of src/host (the probe imports it and is caught)', () => {
    const tmp = path.join(ROOT, 'src', 'host', `__probe_${process.pid}.ts`);
    fs.writeFileSync(tmp, "import * as vscode from 'vscode';\nimport { x } from '../vscode/extension.js';\nexport const y = vscode;\n");
    try {
      assert.deepEqual(
        violations([tmp]).map((v) => v.replace(/^.*?: /, '')),
        ['host may not import the package "vscode"', 'host may not import vscode (../vscode/extension.js)'],
      );
    } finally {
      fs.rmSync(tmp);
    }
  });

  it('lets nothing outside src/cli import src/cli (the extension replays through src/compose)', () => {
    const importers = (Object.keys(ALLOWED) as Layer[]).filter((layer) => layer !== 'cli' && ALLOWED[layer].layers.includes('cli'));
    assert.deepEqual(importers, []);
    const tmp = path.join(ROOT, 'src', 'vscode', `__probe_${process.pid}.ts`);
    fs.writeFileSync(tmp, "import { replayLog } from '../cli/replay-command.js';\nexport const y = replayLog;\n");
    try {
      assert.deepEqual(
        violations([tmp]).map((v) => v.replace(/^.*?: /, '')),
        ['vscode may not import cli (../cli/replay-command.js)'],
      );
    } finally {
      fs.rmSync(tmp);
    }
  });

  it('keeps the kernel free of import cycles (the loop and its steps share loop-host.ts, not each other)', () => {
    const kernel = sourceFiles(path.join(ROOT, 'src', 'kernel'));
    assert.deepEqual(importCycles(kernelGraph(kernel)), []);
  });

  it('catches an import cycle (the check itself can fail)', () => {
    const a = path.join(ROOT, 'src', 'kernel', `__probe_a_${process.pid}.ts`);
    const b = path.join(ROOT, 'src', 'kernel', `__probe_b_${process.pid}.ts`);
    fs.writeFileSync(a, `import type { B } from './${path.basename(b, '.ts')}.js';\nexport type A = B;\n`);
    fs.writeFileSync(b, `import type { A } from './${path.basename(a, '.ts')}.js';\nexport type B = A;\n`);
    try {
      const cycles = importCycles(kernelGraph([a, b]));
      assert.equal(cycles.length, 1, cycles.join('\n'));
      assert.match(cycles[0]!, /__probe_a_\d+\.ts → __probe_b_\d+\.ts → __probe_a_\d+\.ts/);
    } finally {
      fs.rmSync(a);
      fs.rmSync(b);
    }
  });

  it('bundles the kernel for a neutral platform with no externals', async () => {
    const result = await esbuild.build({
      entryPoints: [path.join(ROOT, 'src/kernel/index.ts')],
      bundle: true,
      platform: 'neutral',
      mainFields: ['module', 'main'],
      format: 'esm',
      write: false,
      logLevel: 'silent',
    });
    assert.equal(result.errors.length, 0);
    assert.match(result.outputFiles[0]!.text, /Runtime/);
    assert.doesNotMatch(result.outputFiles[0]!.text, /from "(?!zod)/, 'nothing left external');
  });
});
