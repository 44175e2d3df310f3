// The five fixture projects (test/fixtures/code-intel) and what a correct answer about each is,
// written by hand from the files: where the function is defined and every use of it in code
// (never the comment or string lines that also name it).
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { scratchDir } from '../../support/scratch.js';

export interface FixtureProject {
  name: string;
  /** The file defining Shape and the function. */
  geometry: string;
  /** The function's name. */
  fn: string;
  /** Its kind (in Java, every function is a method). */
  fnKind: 'function' | 'method';
  definition: { line: number; column: number };
  /** A use of the function in another file. */
  use: { path: string; line: number };
  /** Every use in code, definition included, as path:line. */
  references: string[];
  /** The method of Shape. */
  method: string;
  /** The class or struct. */
  shape: string;
  /** How the outline shows the method: in its class, in an impl block, or naming its receiver. */
  methodIn: 'class' | 'impl' | 'receiver';
}

export const PROJECTS: FixtureProject[] = [
  {
    name: 'ts',
    geometry: 'src/geometry.ts',
    fn: 'computeArea',
    fnKind: 'function',
    definition: { line: 21, column: 17 },
    use: { path: 'src/report.ts', line: 5 },
    references: ['src/geometry.ts:21', 'src/legacy.js:2', 'src/legacy.js:5', 'src/report.ts:1', 'src/report.ts:5', 'src/report.ts:7'],
    method: 'area',
    shape: 'Shape',
    methodIn: 'class',
  },
  {
    name: 'python',
    geometry: 'shapes/geometry.py',
    fn: 'compute_area',
    fnKind: 'function',
    definition: { line: 17, column: 5 },
    use: { path: 'shapes/report.py', line: 5 },
    references: ['shapes/geometry.py:17', 'shapes/report.py:1', 'shapes/report.py:5', 'shapes/report.py:7'],
    method: 'area',
    shape: 'Shape',
    methodIn: 'class',
  },
  {
    name: 'go',
    geometry: 'geometry.go',
    fn: 'ComputeArea',
    fnKind: 'function',
    definition: { line: 23, column: 6 },
    use: { path: 'report.go', line: 9 },
    references: ['geometry.go:23', 'report.go:9', 'report.go:11'],
    method: 'Area',
    shape: 'Shape',
    methodIn: 'receiver',
  },
  {
    name: 'rust',
    geometry: 'src/geometry.rs',
    fn: 'compute_area',
    fnKind: 'function',
    definition: { line: 21, column: 8 },
    use: { path: 'src/main.rs', line: 6 },
    references: ['src/geometry.rs:21', 'src/main.rs:2', 'src/main.rs:6', 'src/main.rs:7'],
    method: 'area',
    shape: 'Shape',
    methodIn: 'impl',
  },
  {
    name: 'java',
    geometry: 'src/shapes/Geometry.java',
    fn: 'computeArea',
    fnKind: 'method',
    definition: { line: 22, column: 21 },
    use: { path: 'src/shapes/Report.java', line: 9 },
    references: ['src/shapes/Geometry.java:22', 'src/shapes/Report.java:3', 'src/shapes/Report.java:9', 'src/shapes/Report.java:10'],
    method: 'area',
    shape: 'Shape',
    methodIn: 'class',
  },
];

const FIXTURES = path.resolve(__dirname, '../../fixtures/code-intel');

/**
 * A copy of the project in a temp folder, with what must never be read or shown added: a .env
 * naming the function, a node_modules package and an ignored folder defining and using it.
 */
export function projectCopy(p: FixtureProject): string {
  const root = scratchDir(`codeintel-${p.name}`);
  cpSync(path.join(FIXTURES, p.name), root, { recursive: true });
  const ext = path.extname(p.geometry);
  const hostile = `${p.fn} ${p.fn}\n`;
  writeFileSync(path.join(root, '.env'), `${p.fn}=secret\n`);
  writeFileSync(path.join(root, `.env${ext}`), hostile);
  mkdirSync(path.join(root, 'node_modules', 'dep'), { recursive: true });
  writeFileSync(path.join(root, 'node_modules', 'dep', `index${ext}`), hostile);
  mkdirSync(path.join(root, 'generated'), { recursive: true });
  writeFileSync(path.join(root, 'generated', `copy${ext}`), hostile);
  writeFileSync(path.join(root, '.gitignore'), 'generated/\n');
  return root;
}
