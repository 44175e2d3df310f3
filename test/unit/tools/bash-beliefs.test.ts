// The classifier's beliefs about bash, checked against the real bash it models: each construct it
// refuses really does something hidden (runs a command, changes the words, opens a connection),
// and the forms it accepts really do not.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { type CommandClass, classifyCommand } from '../../../src/tools/policy/classify-command.js';

const HIDDEN = "'a[$(echo RAN >&2)]'";

/** [line, what bash shows (stdout + stderr contains it), what the classifier says]. */
const refused: [string, RegExp, CommandClass][] = [
  [`x=${HIDDEN}; echo $((x))`, /^RAN$/m, 'unparseable'],
  [`x=${HIDDEN}; ((x))`, /^RAN$/m, 'unparseable'],
  [`x=${HIDDEN}; [[ $x -eq 1 ]]`, /^RAN$/m, 'unparseable'],
  [`x=${HIDDEN}; let x`, /^RAN$/m, 'unparseable'],
  [`x=${HIDDEN}; echo \${!x}`, /^RAN$/m, 'unparseable'],
  [`declare ${HIDDEN.replace(/'$/, "=1'")}`, /^RAN$/m, 'unparseable'],
  [`typeset ${HIDDEN.replace(/'$/, "=1'")}`, /^RAN$/m, 'unparseable'],
  [`printf -v ${HIDDEN} x`, /^RAN$/m, 'unparseable'],
  [`test -v ${HIDDEN}`, /^RAN$/m, 'unparseable'],
  [`[ -v ${HIDDEN} ]`, /^RAN$/m, 'unparseable'],
  [`echo x | { read ${HIDDEN}; }`, /^RAN$/m, 'unparseable'],
  ['cat <<E\n$(echo RAN >&2)\nE', /^RAN$/m, 'unparseable'],
  ["eval 'echo RAN >&2'", /^RAN$/m, 'unparseable'],
  ['. ./script.sh', /^RAN$/m, 'unparseable'],
  ['source ./script.sh', /^RAN$/m, 'unparseable'],
  ['coproc { echo RAN >&2; }; wait', /^RAN$/m, 'unparseable'],
  ['case x in x) echo RAN >&2;; esac', /^RAN$/m, 'unparseable'],
  ['cat <(echo RAN)', /^RAN$/m, 'unparseable'],
  ["echo $'\\x52AN'", /^RAN$/m, 'unparseable'],
  ['echo `echo \\$BASH_VERSINFO`', /^\d+$/m, 'unparseable'],
  ['echo $(echo RAN # )\n)', /^RAN$/m, 'unparseable'],
  ['echo ${x:-"R  N"}', /^R {2}N$/m, 'unparseable'],
  ['echo R{A,B}N', /^RAN RBN$/m, 'unparseable'],
  ['ls !(x)', /syntax error/, 'unparseable'],
  ['exec 3<>/dev/tcp/127.0.0.1/1', /Connection refused/, 'network'],
  ['cat < /dev/tcp/127.0.0.1/1', /Connection refused/, 'network'],
  ['echo a=~', new RegExp(`^a=${escapeRegExp(tmpdir())}`, 'm'), 'execute'],
];

/** Forms accepted as read-only whose bash behaviour is as plain as they look. */
const plain: [string, RegExp][] = [
  [`test ${HIDDEN} -eq 1`, /integer expression expected/],
  [`[ ${HIDDEN} -eq 1 ]`, /integer expression expected/],
  [`echo ${HIDDEN}`, /^a\[\$\(echo RAN >&2\)\]$/m],
  ['echo "a$" \'$b\' a#b # c', /^a\$ \$b a#b$/m],
  ["echo '~' {} a{b}c HEAD@{1}", /^~ \{\} a\{b\}c HEAD@\{1\}$/m],
  ['ec\\\nho joined', /^joined$/m],
];

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('the classifier’s beliefs about bash, checked with bash', function () {
  this.timeout(30_000);
  let dir: string;
  const bash = (line: string) => {
    const r = spawnSync('bash', ['--noprofile', '--norc', '-c', line], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, LC_ALL: 'C' },
      encoding: 'utf8',
      timeout: 10_000,
    });
    return `${r.stdout}${r.stderr}`;
  };

  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'keel-bash-'));
    writeFileSync(path.join(dir, 'script.sh'), 'echo RAN >&2\n');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const [line, shows, expected] of refused) {
    it(`${JSON.stringify(line)}: bash shows ${shows}; classified ${expected}`, () => {
      assert.match(bash(line), shows);
      assert.equal(classifyCommand(line).type, expected);
    });
  }

  for (const [line, shows] of plain) {
    it(`${JSON.stringify(line)}: bash runs nothing hidden; classified read_only`, () => {
      const out = bash(line);
      assert.match(out, shows);
      assert.doesNotMatch(out, /^RAN$/m);
      assert.equal(classifyCommand(line).type, 'read_only');
    });
  }
});
