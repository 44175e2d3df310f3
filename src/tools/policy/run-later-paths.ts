// Run-later executables: files a later, more privileged step runs without reading them first —
// `npm run build` puts node_modules/.bin first on PATH, a virtualenv's bin/ is what `python` and
// `pytest` mean once it is active, git runs .git/hooks and .husky on commit, CI runs
// .github/workflows with the repository's secrets, VS Code runs .vscode/tasks.json on folder
// open, direnv runs .envrc on `cd`, and a dev container runs .devcontainer's commands at build.
// A test run (unasked, sandboxed) may not change them, and the model's writes to them ask: a
// test that plants one would otherwise run later outside the sandbox. (.git, .vscode, .husky and
// .envrc are protected already as configuration; they are named here too so the list is whole.)

const RUN_LATER: [RegExp, string][] = [
  [/(?:^|\/)node_modules\/\.bin(?:\/|$)/, 'is a package binary (node_modules/.bin) that npm run and npx put first on PATH'],
  [/(?:^|\/)\.?venv\/(?:bin|scripts)(?:\/|$)/, "is a virtualenv's program folder (python, pytest and the console scripts)"],
  [/(?:^|\/)\.github\/workflows(?:\/|$)/, 'is a CI workflow (.github/workflows), run by CI with the repository’s secrets'],
  [/(?:^|\/)\.devcontainer(?:\/|$)/, 'defines a dev container whose commands run when it is built'],
  [/(?:^|\/)\.devcontainer\.json$/, 'defines a dev container whose commands run when it is built'],
];

/** Any of RUN_LATER's patterns, tested first: most paths match none. */
const ANY_RUN_LATER = new RegExp(RUN_LATER.map(([re]) => re.source).join('|'));

/** Why `rel` (canonical, workspace-relative, lower-cased) runs later with more privilege, or undefined. */
export function runLaterReason(rel: string): string | undefined {
  if (!ANY_RUN_LATER.test(rel)) return undefined;
  for (const [re, why] of RUN_LATER) if (re.test(rel)) return why;
  return undefined;
}
