// Source files that stall a syntax-tree index without parse limits (issue 33's "a file that
// stalls every task"): TypeScript namespaces nested thousands of levels deep (about 390 KB at
// 20,000 levels; the extraction climbed to the root from each one, and each step up costs about
// the node's depth), and an `else if` chain whose functions sit ever deeper in the tree without a
// single bracket more (no nesting count sees it; only the time limit stops it).

/** `namespace N0 { namespace N1 { … export const x = 1; … } }`, `levels` deep. */
export function nestedNamespaces(levels = 20_000): string {
  const open: string[] = [];
  for (let i = 0; i < levels; i++) open.push(`namespace N${i} {\n`);
  return `${open.join('')}export const x = 1;\n${'}\n'.repeat(levels)}`;
}

/** `if (a) { function f0() {} } else if (a1) { function f1() {} } …`, `branches` long. */
export function elseIfChain(branches = 8_000): string {
  const parts = ['if (a) { function f0() {} }'];
  for (let i = 1; i < branches; i++) parts.push(` else if (a${i}) { function f${i}() {} }`);
  return `${parts.join('')}\n`;
}
