// Syntax can tell a member from a free-standing name even without types: `shape.area` reaches
// `area` through a value, and `area` defined in a class body (or a Go method's receiver) belongs
// to a type. References use it to leave out definitions of a same-named symbol of the other
// sort (a class's own `parse` method is not a use of the module's `parse` function). Uses are
// never left out: `pkg.Func()` and `ns.fn()` reach free-standing names through a dot too.
// A member with no type around it is a literal's key (`type T = { a: string }`, `const o = { f() {} }`):
// the repo map and its ranking pass over those, since they name a value's shape, not the code.
import type { IndexedDef } from './extract.js';
import type { LanguageSpec } from './languages.js';

const CLASS_LIKE = new Set(['class', 'interface', 'enum', 'other']);

/** A definition that belongs to a type: inside a class-like definition, or a Go method. */
export function isMemberDef(defs: readonly IndexedDef[], d: IndexedDef): boolean {
  if (d.container !== undefined) return true;
  const parent = d.parent >= 0 ? defs[d.parent] : undefined;
  return parent !== undefined && CLASS_LIKE.has(parent.kind);
}

/** Whether the name starting at this 1-based column is reached through a value (`x.name`, `x?.name`). */
export function isMemberAccess(line: string, column: number): boolean {
  const before = line.slice(0, column - 1).trimEnd();
  return before.endsWith('.') && !before.endsWith('..');
}

const KEY_KINDS = new Set(['property', 'field', 'method']);

/** A key of an object literal or an object type in JavaScript or TypeScript: a member outside any class-like definition. */
export function isLiteralKey(spec: Pick<LanguageSpec, 'family'>, d: IndexedDef): boolean {
  return spec.family === 'js' && d.parent < 0 && d.container === undefined && KEY_KINDS.has(d.kind);
}
