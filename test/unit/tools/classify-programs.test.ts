import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { READ_ONLY_PROGRAM_NAMES } from '../../../src/tools/policy/classify-argv.js';
import { type CommandClass, classifyCommand } from '../../../src/tools/policy/classify-command.js';

/** Per program on the allowlist: a form that only reads, and the options that would not. */
const programs: Record<string, [string, CommandClass][]> = {
  ls: [
    ['ls -laR --color=auto src', 'read_only'],
    ['ls -L link', 'execute'],
    ['ls --dereference', 'execute'],
    ['ls --color always', 'read_only'],
  ],
  cat: [
    ['cat -n a', 'read_only'],
    ['cat --unknown a', 'execute'],
  ],
  head: [
    ['head -n 5 a', 'read_only'],
    ['head -5 a', 'read_only'],
    ['head -n -5 a', 'read_only'],
    ['head -c1K a', 'read_only'],
  ],
  tail: [
    ['tail -n +2 a', 'read_only'],
    ['tail -f log', 'execute'],
    ['tail -F log', 'execute'],
    ['tail --follow=name log', 'execute'],
    ['tail --pid=1 log', 'execute'],
  ],
  wc: [
    ['wc -lw a b', 'read_only'],
    ['wc --files0-from=list', 'execute'],
  ],
  grep: [
    ['grep -rn --include="*.ts" foo src', 'read_only'],
    ['grep -5 foo a', 'read_only'],
    ['grep -f patterns.txt a', 'read_only'],
    ['grep -R foo .', 'execute'],
    ['grep --dereference-recursive foo .', 'execute'],
    ['grep -d recurse foo .', 'read_only'],
    ['grep -d skipx foo .', 'execute'],
    ['grep --include=*.ts foo .', 'execute'],
    ['grep *.ts file', 'execute'],
    ['grep -e -x file', 'execute'],
  ],
  egrep: [['egrep "a|b" f', 'read_only']],
  fgrep: [['fgrep -i x f', 'read_only']],
  rg: [
    ['rg -n -g "*.ts" foo src', 'read_only'],
    ['rg --files', 'read_only'],
    ['rg --pre ./x foo', 'execute'],
    ['rg --pre-glob "*" foo', 'execute'],
    ['rg -z foo', 'execute'],
    ['rg --search-zip foo', 'execute'],
    ['rg -L foo', 'execute'],
    ['rg --follow foo', 'execute'],
    ['rg -f=pats foo', 'execute'],
    ['rg --hostname-bin=./x foo', 'execute'],
  ],
  stat: [
    ['stat -c %s a', 'read_only'],
    ['stat --printf="%n" a', 'read_only'],
  ],
  file: [
    ['file -b --mime-type a', 'read_only'],
    ['file -C -m x', 'execute'],
    ['file -z a.gz', 'execute'],
    ['file -m magic a', 'execute'],
    ['file -f names', 'execute'],
  ],
  du: [
    ['du -sh src', 'read_only'],
    ['du -L .', 'execute'],
    ['du --files0-from=x', 'execute'],
  ],
  df: [
    ['df -h .', 'read_only'],
    ['df --output=source', 'execute'],
  ],
  tree: [
    ['tree -L 2 -a src', 'read_only'],
    ['tree -o out.txt', 'execute'],
    ['tree -l', 'execute'],
    ['tree --fromfile x', 'execute'],
  ],
  diff: [
    ['diff -u a b', 'read_only'],
    ['diff --from-file=a b c', 'read_only'],
    ['diff --to-file=a b', 'read_only'],
    ['diff -r a b', 'execute'],
    ['diff -l a b', 'execute'],
    ['diff --paginate a b', 'execute'],
  ],
  cmp: [
    ['cmp -l a b 10 20', 'read_only'],
    ['cmp a b 1 2 3', 'execute'],
  ],
  uniq: [
    ['uniq -c a', 'read_only'],
    ['uniq a b', 'execute'],
  ],
  cut: [["cut -d' ' -f1 a", 'read_only']],
  realpath: [['realpath --relative-to=src a', 'read_only']],
  readlink: [['readlink -f a', 'read_only']],
  md5sum: [
    ['md5sum a', 'read_only'],
    ['md5sum -c sums', 'execute'],
  ],
  sha1sum: [['sha1sum a', 'read_only']],
  sha224sum: [['sha224sum a', 'read_only']],
  sha256sum: [
    ['sha256sum a', 'read_only'],
    ['sha256sum --check sums', 'execute'],
  ],
  sha384sum: [['sha384sum a', 'read_only']],
  sha512sum: [['sha512sum a', 'read_only']],
  b2sum: [['b2sum -l 256 a', 'read_only']],
  cksum: [['cksum -a sha256 a', 'read_only']],
  base64: [
    ['base64 -d a', 'read_only'],
    ['base64 a b', 'execute'],
  ],
  nl: [['nl -ba a', 'read_only']],
  column: [['column -t -s, a', 'read_only']],
  comm: [
    ['comm -12 a b', 'read_only'],
    ['comm a b c', 'execute'],
  ],
  rev: [['rev a', 'read_only']],
  od: [['od -An -tx1 a', 'read_only']],
  hexdump: [['hexdump -C a', 'read_only']],
  fold: [['fold -w 80 a', 'read_only']],
  paste: [['paste -sd, a', 'read_only']],
  join: [
    ['join -t, -1 2 a b', 'read_only'],
    ['join a b c', 'execute'],
  ],
  sort: [
    ['sort -t, -k2,2n a', 'read_only'],
    ['sort -o out a', 'execute'],
    ['sort --output=out a', 'execute'],
    ['sort --outp=out a', 'execute'],
    ['sort -T /tmp a', 'execute'],
    ['sort --compress-program=x a', 'execute'],
    ['sort --files0-from=list', 'execute'],
    ['sort --random-source=a b', 'read_only'],
  ],
  tr: [
    ["tr 'a-z' 'A-Z'", 'read_only'],
    ['tr [a-z] [A-Z]', 'execute'],
  ],
  basename: [['basename -s .ts src/a.ts', 'read_only']],
  dirname: [['dirname src/a.ts', 'read_only']],
  seq: [['seq -w 1 10', 'read_only']],
  expr: [["expr 1 + 2 '*' 3", 'read_only']],
  sleep: [['sleep 0.1', 'read_only']],
  which: [['which -a node', 'read_only']],
  whoami: [['whoami', 'read_only']],
  id: [['id -un', 'read_only']],
  uname: [['uname -a', 'read_only']],
  date: [
    ['date -u +%Y-%m-%d', 'read_only'],
    ['date -s 2020-01-01', 'execute'],
    ['date --set=2020-01-01', 'execute'],
    ['date 010100002020', 'execute'],
    ['date -f dates.txt', 'read_only'],
  ],
  find: [
    ['find . -type f -name "*.ts" -mtime -1 -print0', 'read_only'],
    ['find src -maxdepth 2 \\( -name a -o -name b \\) -printf "%p\\n"', 'read_only'],
    ['find . -exec rm {} \\;', 'execute'],
    ['find . -execdir ls \\;', 'execute'],
    ['find . -ok rm {} \\;', 'execute'],
    ['find . -okdir rm {} \\;', 'execute'],
    ['find . -delete', 'execute'],
    ['find . -fprint out', 'execute'],
    ['find . -fprint0 out', 'execute'],
    ['find . -fprintf out %p', 'execute'],
    ['find . -fls out', 'execute'],
    ['find -L .', 'execute'],
    ['find . -follow', 'execute'],
    ['find . -name *.ts', 'execute'],
    ['find . -files0-from x', 'execute'],
  ],
  git: [['git log --oneline --graph --all -20', 'read_only']],
  cd: [['cd src', 'read_only']],
  pwd: [
    ['pwd -P', 'read_only'],
    ['pwd x', 'execute'],
  ],
  echo: [['echo -ne "a\\n"', 'read_only']],
  printf: [
    ['printf "%s\\n" a b', 'read_only'],
    ['printf -- "%s" a', 'read_only'],
    ['printf -x a', 'execute'],
  ],
  test: [
    ['test -f a -a -d b', 'read_only'],
    ['test a *', 'execute'],
  ],
  '[': [
    ['[ -n "x" ]', 'read_only'],
    ['[ -n x', 'execute'],
  ],
  true: [['true', 'read_only']],
  false: [['false', 'read_only']],
  ':': [['true && :', 'read_only']],
  set: [
    ['set -e', 'read_only'],
    ['set -o errexit -o nounset', 'read_only'],
    ['set -o posix', 'execute'],
    ['set +B', 'execute'],
    ['set -- a b', 'execute'],
  ],
  type: [['type -a ls', 'read_only']],
  exit: [
    ['exit 0', 'read_only'],
    ['exit x', 'execute'],
  ],
};

describe('classifyCommand: the read-only allowlist, program by program', () => {
  it('covers every program on the list', () => {
    assert.deepEqual(Object.keys(programs).sort(), [...READ_ONLY_PROGRAM_NAMES].sort());
  });

  for (const [name, cases] of Object.entries(programs)) {
    describe(name, () => {
      for (const [command, expected] of cases) {
        it(`${JSON.stringify(command)} → ${expected}`, () => {
          const c = classifyCommand(command);
          assert.equal(c.type, expected, c.reasons.join('; '));
        });
      }
    });
  }

  it('takes an option value from the next word exactly when the real program does (else an operand hides)', () => {
    // GNU long options with an optional value take it only after `=`: the next word is an operand.
    for (const [line, missing] of <[string, string][]>[
      ['diff --context keel-missing-1 /dev/null', 'keel-missing-1'],
      ['diff --unified keel-missing-2 /dev/null', 'keel-missing-2'],
      ['ls --color keel-missing-3', 'keel-missing-3'],
      ['grep --color x keel-missing-4', 'keel-missing-4'],
      ['od --width keel-missing-5', 'keel-missing-5'],
    ]) {
      const r = spawnSync('bash', ['--noprofile', '--norc', '-c', line], { encoding: 'utf8' });
      assert.match(r.stderr, new RegExp(missing), `${line}: the program reads ${missing} as a file`);
      assert.ok(
        classifyCommand(line).paths.some((p) => p.path === missing),
        `${line}: ${missing} is reported as a path`,
      );
    }
    assert.ok(classifyCommand('diff -C 3 a b').paths.every((p) => p.path !== '3'));
  });

  it('keeps programs that are not on the list asking', () => {
    for (const command of [
      'jq . a.json',
      'less a',
      'more a',
      'vi a',
      'man ls',
      'tac a',
      'xxd a b',
      'strings a',
      'awk 1 a',
      'sed -n 1p a',
      'tee a',
    ])
      assert.equal(classifyCommand(command).type, 'execute', command);
  });
});
