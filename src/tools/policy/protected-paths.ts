// Paths that always ask before a change, even when writes are pre-approved: editor and agent
// configuration, git internals and hooks, secrets, and files that define commands that other,
// auto-approvable commands run (package.json scripts behind `npm test`), hooks (`.claude/`, whose
// settings define hooks and whose folders hold their scripts), and text that steers every later
// task: rules files (AGENTS.md, CLAUDE.md and their kin anywhere, `.keel/rules/` under .keel),
// custom agents, commands and prompts (`.claude/agents`, `.github/agents`, `.claude/commands`,
// `.github/prompts`). A path is classified as written and as resolved (`protectedPathReason`),
// so AGENTS.md as a link to a file of any name keeps its protection. A Makefile is not
// protected: `make` is never auto-approved, so editing one cannot widen what runs unasked.
// Matched case-insensitively, so `.VSCode/` on a case-insensitive disk is caught too. The OS
// sandbox (src/node/sandbox) hides the secret files from sandboxed commands and keeps these paths,
// and manifests, read-only for a test run.
import type { SandboxPathRules } from '../../kernel/index.js';
import { runLaterReason } from './run-later-paths.js';
import { runnerWrites } from './runner-writes.js';

const SEGMENTS: [string, string][] = [
  ['.git', 'is inside .git (repository internals and hooks)'],
  ['.vscode', 'is VS Code configuration (tasks and launch configurations run commands)'],
  ['.keel', 'is Keel configuration'],
  ['.husky', 'defines git hooks (.husky)'],
  ['.claude', 'is Claude Code configuration (hooks and the scripts they run, agents, commands)'],
];

/** Folders protected only where they sit under a given parent (`.github/agents`, not any `agents/`). */
const NESTED: [string, string, string][] = [
  ['.github', 'agents', "defines custom agents (.github/agents): their descriptions go into every task's system prompt"],
  ['.github', 'prompts', 'defines prompt files (.github/prompts) that steer later tasks'],
];

const NAMES: [RegExp, string][] = [
  [/\.code-workspace$/, 'is a VS Code workspace file (settings, tasks)'],
  [/^\.keelignore$/, 'decides what Keel may see (.keelignore)'],
  [/^\.gitignore$/, 'decides what git and Keel ignore (.gitignore)'],
  [/^\.env/, 'may hold secrets (.env files)'],
  [/^package\.json$/, 'defines the scripts that npm test and npm run execute'],
  [/^\.npmrc$/, 'configures how npm runs scripts (.npmrc)'],
  [/^(agents|claude|gemini)\.md$/, "is a rules file (AGENTS.md, CLAUDE.md): its text goes into every task's system prompt"],
  [/^(\.cursorrules|\.windsurfrules|\.clinerules|copilot-instructions\.md)$/, "is a rules file: its text steers every agent's task"],
];

const SEGMENT_NAMES = new Set(SEGMENTS.map(([segment]) => segment));
/** Any of NAMES' patterns: most names match none, and one test says so. */
const ANY_NAME = new RegExp(NAMES.map(([re]) => re.source).join('|'));

/** Why the path is protected, or undefined. `rel` is a canonical workspace-relative path. */
export function protectedReason(rel: string): string | undefined {
  const lower = rel.toLowerCase();
  const parts = lower.split('/');
  if (parts.some((part) => SEGMENT_NAMES.has(part))) for (const [segment, why] of SEGMENTS) if (parts.includes(segment)) return why;
  if (parts.length > 1)
    for (const [parent, child, why] of NESTED)
      for (let i = 0; i + 1 < parts.length; i++) if (parts[i] === parent && parts[i + 1] === child) return why;
  const name = parts[parts.length - 1] ?? '';
  if (ANY_NAME.test(name)) for (const [re, why] of NAMES) if (re.test(name)) return why;
  return runLaterReason(lower);
}

/**
 * Why a path is protected as written (`given`, relative to `cwd` or the root, not yet following
 * links) or as resolved (`rel`, canonical): a link named AGENTS.md is a rules file whatever it
 * points at, and a file reached through a link into .git is inside .git.
 */
export function protectedPathReason(given: string, rel: string, cwd = ''): string | undefined {
  return protectedReason(rel) ?? protectedReason(lexical(given, cwd));
}

/**
 * `given` joined to `cwd` and normalised as text (`a/./b/../c` → `a/c`). Of an absolute path only
 * the name counts: its folders are the machine's, which the resolved path already classified.
 */
function lexical(given: string, cwd: string): string {
  if (given.startsWith('/')) return given.split('/').pop() ?? '';
  const parts: string[] = [];
  for (const seg of `${cwd}/${given}`.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') parts.pop();
    else parts.push(seg);
  }
  return parts.join('/');
}

/** Files whose mere reading would hand secrets to the model provider. */
export function isSecretFile(rel: string): boolean {
  const name = nameOf(rel).toLowerCase();
  return name.startsWith('.env') && !/\.(example|sample|template)$/.test(name);
}

/** The last segment of a `/`-separated path. */
function nameOf(rel: string): string {
  return rel.slice(rel.lastIndexOf('/') + 1);
}

/**
 * Files a test run in the sandbox may not change besides the protected paths: package manifests
 * and lockfiles (what installs and builds run next), version pins and direnv's .envrc (which a
 * shell runs on entering the folder).
 */
const MANIFESTS =
  /^(package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|\.yarnrc(\.yml)?|pnpm-lock\.yaml|pnpm-workspace\.yaml|\.pnpmfile\.cjs|bun\.lockb?|cargo\.(toml|lock)|go\.(mod|sum|work)|pyproject\.toml|poetry\.lock|pipfile(\.lock)?|uv\.lock|setup\.(py|cfg)|tox\.ini|gemfile(\.lock)?|composer\.(json|lock)|\.envrc|\.tool-versions|\.nvmrc|\.node-version|\.python-version)$/;

/** What a sandboxed command may not see (secrets) and, when it may write, may not change. */
export const COMMAND_SANDBOX_RULES: SandboxPathRules = {
  runnerWrites,
  hidden: isSecretFile,
  readOnly: (rel) => protectedReason(rel) !== undefined || MANIFESTS.test(nameOf(rel).toLowerCase()),
};
