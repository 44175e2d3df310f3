// keel run's hooks: the user's hooks.json in Keel's config folder always runs (it is their own);
// the workspace's (.keel/hooks.json, .claude/settings*.json) only with --allow-hooks, in the
// test-run sandbox, or with --allow-hooks-unsandboxed as the user's shell would run them — without
// either keel says on stderr how many were skipped and how to run them. The flag allows what is
// there when the task first reads them: the definitions and the bytes of the files they run,
// pinned by hash. If any of it changes during the task (a test run or the model rewrote a
// script), nobody at the command line allowed the new bytes: the changed hooks do not run and
// keel says so. Problems in a hooks file are printed with their file and line, and the file's
// other hooks still load.
import { describeSkillProblem, type ComposeInput, type SkillProblem } from '../compose/index.js';
import { keelConfigDir } from '../node/config-folder.js';
import { userSkillFolder } from '../node/skill-folder.js';

export type HookAllowance = 'none' | 'sandboxed' | 'unsandboxed';

export function hookAllowance(options: { allowHooks?: boolean; hooksUnsandboxed?: boolean }): HookAllowance {
  if (options.hooksUnsandboxed) return 'unsandboxed';
  return options.allowHooks ? 'sandboxed' : 'none';
}

export function cliHooks(
  allow: HookAllowance,
  env: NodeJS.ProcessEnv,
  stderr: NodeJS.WritableStream,
  taskId: string,
): ComposeInput['hooks'] {
  let pinned: string | undefined;
  return {
    user: userSkillFolder(keelConfigDir(env)),
    taskId,
    unsandboxed: allow === 'unsandboxed',
    allowWorkspace(hooks, hash, scripts) {
      const files = [...new Set(hooks.map((h) => h.file))].join(', ');
      if (allow === 'none') {
        stderr.write(`keel: skipped ${hooks.length} workspace hook${hooks.length === 1 ? '' : 's'} (${files}); --allow-hooks runs them\n`);
        return false;
      }
      pinned ??= hash;
      if (pinned === hash) return true;
      const ran = scripts.map((s) => s.path).join(', ');
      stderr.write(
        `keel: the workspace's hooks changed during the task (${files}${ran ? `; the files they run: ${ran}` : ''}): not run, since --allow-hooks allowed them as they were at the start\n`,
      );
      return false;
    },
    report(problems: readonly SkillProblem[]) {
      for (const p of problems) stderr.write(`keel: skipped a hook: ${describeSkillProblem(p)}\n`);
    },
  };
}
