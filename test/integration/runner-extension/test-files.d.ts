// The module test/integration/build.ts generates while bundling: one loader per test file.
declare module 'keel-integration-test-files' {
  export const testFiles: ReadonlyArray<{ name: string; load(): unknown }>;
}
