// keel run's hooks: the user's hooks.json in Keel's config folder always runs (it is their own);
// the workspace's (.keel/hooks.json, .claude/settings*.json) only with --allow-hooks — without
// it keel says on stderr how many were skipped and how to run them. Problems in a hooks file are
// printed with their file and line, and the file's other hooks still load.
import { describeSkillProblem, type ComposeInput, type SkillProblem } from '../compose/index.js';
import { keelConfigDir } from '../node/config-folder.js';
import { userSkillFolder } from '../node/skill-folder.js';

export function cliHooks(allow: boolean, env: NodeJS.ProcessEnv, stderr: NodeJS.WritableStream, taskId: string): ComposeInput['hooks'] {
  return {
    user: userSkillFolder(keelConfigDir(env)),
    taskId,
    allowWorkspace(hooks) {
      if (allow) return true;
      const files = [...new Set(hooks.map((h) => h.file))].join(', ');
      stderr.write(`keel: skipped ${hooks.length} workspace hook${hooks.length === 1 ? '' : 's'} (${files}); --allow-hooks runs them\n`);
      return false;
    },
    report(problems: readonly SkillProblem[]) {
      for (const p of problems) stderr.write(`keel: skipped a hook: ${describeSkillProblem(p)}\n`);
    },
  };
}
