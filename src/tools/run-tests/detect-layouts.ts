// Test commands for the layouts beyond one package and its runner: a monorepo whose root has no
// test script (turbo, nx, lerna, pnpm/yarn/npm workspaces: each package's own tests; the runners
// that stop at the first package that fails are told to go on, so every package reports), deno,
// CMake (configure into build/, build — an exercise's tests often run as a build step — then
// CTest), Gradle and Maven offline (through the project's wrapper when it has one). Each form is
// one the policy runs unasked inside the test-run sandbox (src/tools/policy/project-runners.ts).
import type { PackageJson, Toolchain } from './toolchain.js';

export interface Layout {
  command: string;
  because: string;
}

/** A monorepo's runner, when the root package.json has no test script of its own. */
export function monorepoCommand(names: ReadonlySet<string>, pkg: PackageJson | undefined, tc: Toolchain): Layout | undefined {
  if (names.has('turbo.json')) return { command: 'npx --no-install turbo run test --continue', because: 'turbo.json (a turbo monorepo)' };
  if (names.has('nx.json')) return { command: 'npx --no-install nx run-many -t test', because: 'nx.json (an nx monorepo)' };
  if (names.has('lerna.json')) return { command: 'npx --no-install lerna run test --no-bail', because: 'lerna.json (a lerna monorepo)' };
  const workspaces = names.has('pnpm-workspace.yaml') || pkg?.workspaces !== undefined;
  if (!workspaces) return undefined;
  const because = names.has('pnpm-workspace.yaml') ? 'pnpm-workspace.yaml' : 'package.json workspaces';
  switch (tc.packageManager) {
    case 'pnpm':
      return { command: 'pnpm -r --no-bail test', because };
    case 'yarn':
      return { command: tc.yarnBerry ? 'yarn workspaces foreach -A run test' : 'yarn workspaces run test', because };
    case 'bun':
    case 'npm':
      return { command: 'npm test --workspaces --if-present', because };
  }
}

export function denoCommand(names: ReadonlySet<string>): Layout | undefined {
  const config = ['deno.json', 'deno.jsonc'].find((n) => names.has(n));
  return config ? { command: 'deno test', because: config } : undefined;
}

/** CMake: configure, build, then CTest's registered tests (their output shown when one fails). */
export function cmakeCommand(names: ReadonlySet<string>): Layout | undefined {
  if (!names.has('CMakeLists.txt')) return undefined;
  return {
    command: 'cmake -S . -B build && cmake --build build && ctest --test-dir build --output-on-failure',
    because: 'CMakeLists.txt',
  };
}

export function jvmCommand(names: ReadonlySet<string>): Layout | undefined {
  const gradle = ['build.gradle', 'build.gradle.kts', 'settings.gradle', 'settings.gradle.kts'].find((n) => names.has(n));
  if (gradle) return { command: names.has('gradlew') ? './gradlew --offline test' : 'gradle --offline test', because: gradle };
  if (names.has('pom.xml')) return { command: names.has('mvnw') ? './mvnw -o test' : 'mvn -o test', because: 'pom.xml' };
  return undefined;
}
