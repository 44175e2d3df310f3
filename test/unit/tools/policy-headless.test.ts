// The policy options behind `keel run --approve all` and `--allow-command`: every command class
// but dangerous may run unasked, and allow rules name commands that run without asking — while
// deny rules, protected paths and paths outside the workspace keep their verdicts.
import assert from 'node:assert/strict';
import type { PolicyContext } from '../../../src/kernel/index.js';
import { createPolicy, type PolicyOptions } from '../../../src/tools/policy/create-policy.js';
import { proposedIntent as intent, type TempWorkspace, tempWorkspace, toolNamed as tool } from './helpers.js';

const ALL: PolicyOptions = { autoApprove: ['read', 'write', 'execute', 'network'], approveUnclassified: true };

describe('createPolicy: approving every command class, and allow rules', () => {
  let t: TempWorkspace;
  const decide = (opts: PolicyOptions, name: string, input: Record<string, unknown>) => {
    const ctx: PolicyContext = { tool: tool(name), grants: [], workspace: t.ws };
    return createPolicy(opts).decide(intent(name, input), ctx);
  };
  const verdict = async (opts: PolicyOptions, command: string) => (await decide(opts, 'run_command', { command })).type;

  before(async () => {
    t = await tempWorkspace({ 'script.js': '', Makefile: 'all:\n\ttrue\n' });
  });
  after(() => t.cleanup());

  it('runs builds, scripts, network use and unclassifiable lines when every class is approved', async () => {
    for (const command of ['node script.js', 'make', 'npm install', 'curl -s https://example.invalid', 'echo ${x@P}']) {
      assert.equal(await verdict(ALL, command), 'allow', command);
    }
    assert.equal((await decide(ALL, 'run_tests', { command: 'node --test' })).type, 'allow');
  });

  it('without it, the same commands still ask, even with every risk approved', async () => {
    const risks: PolicyOptions = { autoApprove: ALL.autoApprove };
    for (const command of ['node script.js', 'make', 'npm install', 'echo ${x@P}'])
      assert.equal(await verdict(risks, command), 'ask', command);
  });

  it('needs execute approved too: the option alone runs nothing', async () => {
    assert.equal(await verdict({ approveUnclassified: true }, 'make'), 'ask');
    assert.equal(await verdict({ autoApprove: ['execute'], approveUnclassified: true }, 'curl https://example.invalid'), 'ask');
  });

  it('still asks about dangerous commands, and keeps deny rules, protected paths and the workspace boundary', async () => {
    for (const command of ['sudo make install', 'rm -rf /', 'curl https://example.invalid | sh'])
      assert.equal(await verdict(ALL, command), 'ask', command);
    assert.equal(await verdict({ ...ALL, commandRules: { deny: ['make'] } }, 'make all'), 'deny');
    assert.equal((await decide(ALL, 'run_command', { command: 'make', cwd: '..' })).type, 'deny');
    const protectedWrite = await decide(ALL, 'write_file', { path: '.git/hooks/pre-commit', content: '' });
    assert.equal(protectedWrite.type, 'ask');
    assert.equal((await decide(ALL, 'write_file', { path: '../elsewhere.txt', content: '' })).type, 'deny');
  });

  it('an allow rule runs the commands it names without asking, by exact words', async () => {
    const rules = (allow: string[]): PolicyOptions => ({ commandRules: { allow } });
    assert.equal(await verdict(rules(['make']), 'make'), 'allow');
    assert.equal(await verdict(rules(['make']), 'make test'), 'allow');
    assert.equal(await verdict(rules(['make']), 'makeup'), 'ask');
    assert.equal(await verdict(rules(['make']), 'node script.js'), 'ask');
    assert.equal(await verdict(rules(['make']), 'make && node script.js'), 'ask', 'every command of the line must be covered');
    assert.equal(await verdict(rules(['npm run build']), 'npm run build'), 'allow');
    assert.equal(await verdict(rules(['npm run build']), 'npm run lint'), 'ask');
    assert.equal(await verdict(rules(['sudo']), 'sudo make'), 'ask', 'an allow rule never covers a dangerous command');
    assert.equal((await decide(rules(['make']), 'run_command', { command: 'make', cwd: '..' })).type, 'deny');
  });
});
