// Red team, a file that stalls every task (issue 33 item 9): a workspace holding 390 KB of
// TypeScript namespaces nested 20,000 deep and a 310 KB `else if` chain whose functions sit ever
// deeper in the tree. A real `keel run`: its first request reaches the model without waiting for
// the repo map more than its bound, saying the map comes later; a later request carries the map,
// which names the two files the index gave up on and shows the rest. The yardstick: without
// Keel's caps each file costs the square of its depth — what the index used to spend, measured
// here on parts of the same files and scaled to the whole.
import assert from 'node:assert/strict';
import type { Node } from '@vscode/tree-sitter-wasm';
import { parseSource } from '../../../src/codeintel/extract.js';
import { parserFor } from '../../../src/codeintel/grammars.js';
import { languageOf } from '../../../src/codeintel/languages.js';
import { REPO_MAP_PENDING } from '../../../src/kernel/context/context-block.js';
import { hostileRun, type HostileRun } from '../../support/redteam.js';
import { elseIfChain, nestedNamespaces } from '../../support/stall-payloads.js';

const ts = languageOf('a.ts')!;
const NEVER = { passed: () => false };

/** Milliseconds `work` takes. */
async function timed(work: () => unknown): Promise<number> {
  const t = performance.now();
  await work();
  return performance.now() - t;
}

/** The least of `n` measurements: the one a loaded machine disturbed least. */
async function fastestOf(n: number, measure: () => Promise<number>): Promise<number> {
  let least = Number.POSITIVE_INFINITY;
  for (let i = 0; i < n; i++) least = Math.min(least, await measure());
  return least;
}

/** How long climbing from the innermost namespace to the root takes (the index asked each definition's depth so). */
async function climbFromInnermost(levels: number): Promise<number> {
  const tree = (await parserFor(ts.grammar)).parse(nestedNamespaces(levels))!;
  try {
    let node: Node = tree.rootNode;
    for (let next = node.firstNamedChild; next; next = node.namedChildren.at(-1) ?? null) node = next;
    return await timed(() => {
      for (let n: Node | null = node; n; n = n.parent);
    });
  } finally {
    tree.delete();
  }
}

describe('red team: a file that stalls the code index does not hold up the task', function () {
  this.timeout(180_000);
  let attack: HostileRun;

  before(async () => {
    attack = await hostileRun({
      files: {
        'src/deep.ts': nestedNamespaces(),
        'src/chain.ts': elseIfChain(8_000),
        'src/util.ts': 'export function helper(x: number) {\n  return x + 1;\n}\n',
      },
      turns: Array.from({ length: 6 }, () => [{ name: 'list_files', input: { path: '.' } }]),
      replyDelayMs: 1000,
    });
  });

  it('yardstick: without the caps, each file costs the square of its depth — minutes for these', async () => {
    // The namespaces: a climb from the innermost one at 800 and 1,600 levels (the fastest of three, after one to warm up), scaled to 20,000.
    await climbFromInnermost(400);
    const small = await fastestOf(3, () => climbFromInnermost(800));
    const large = await fastestOf(3, () => climbFromInnermost(1_600));
    assert.ok(
      large / small > 2.5,
      `twice as deep cost ${(large / small).toFixed(1)}× as much (${Math.round(small)} → ${Math.round(large)} ms)`,
    );
    const deep = large * (20_000 / 1_600) ** 2;
    assert.ok(deep > 30_000, `the whole file: about ${Math.round(deep / 1000)} s`);
    // The chain: the uncapped parse at 1,200 and 2,400 branches (after one to warm up), scaled to 8,000.
    await parseSource(elseIfChain(500), ts, NEVER);
    const short = await fastestOf(3, () => timed(() => parseSource(elseIfChain(1_200), ts, NEVER)));
    const long = await fastestOf(2, () => timed(() => parseSource(elseIfChain(2_400), ts, NEVER)));
    assert.ok(long / short > 2.2, `twice as long cost ${(long / short).toFixed(1)}× as much`);
    const whole = long * (8_000 / 2_400) ** 2;
    assert.ok(whole > 3_000, `the whole file: about ${Math.round(whole / 1000)} s on this thread`);
  });

  it('the first request goes without waiting on the map more than its bound, and says the map comes later', () => {
    assert.equal(attack.run.code, 0, attack.run.stdout + attack.run.stderr);
    const first = attack.requests[0]!;
    assert.ok(first.includes(REPO_MAP_PENDING), first.slice(0, 2000));
    const log = attack.log
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    const time = (type: string) => log.find((e) => e.type === type)?.time as number;
    const waited = time('repo_map_built') - time('user_message');
    assert.ok(waited < 10_000, `the map was waited on for ${waited} ms`);
  });

  it('a later request carries the map: the other files shown, the two given up named', () => {
    const withMap = attack.requests.find((r) => r.includes('src/util.ts\\n  1 export function helper'));
    assert.ok(withMap, 'the map arrived at a later turn');
    assert.match(
      withMap,
      /Not in the map: 2 files the index gave up on: src\/chain\.ts \(too slow to parse\), src\/deep\.ts \(nested too deeply\)\./,
    );
    const maps = attack.log.split('\n').filter((l) => l.includes('"repo_map_built"'));
    assert.deepEqual(
      maps.map((l) => [JSON.parse(l).reason, JSON.parse(l).pending ?? false]),
      [
        ['start', true],
        ['late', false],
      ],
    );
  });
});
