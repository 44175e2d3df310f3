// Programs known by what they are: network commands (fetchers, installers) and dangerous ones
// always ask; shells and interpreters run code. The read-only allowlist lives in
// read-only-programs.ts, shell-builtins.ts, find-spec.ts and git-spec.ts.

export const NETWORK_COMMANDS = new Set([
  'curl',
  'wget',
  'ssh',
  'scp',
  'sftp',
  'rsync',
  'nc',
  'ncat',
  'netcat',
  'telnet',
  'ftp',
  'aria2c',
  'http',
  'https',
  'socat',
  'bunx',
  'pipx',
]);

/** Package managers: the subcommands that download. */
export const INSTALLERS: Record<string, Set<string>> = {
  npm: new Set([
    'install',
    'i',
    'ci',
    'add',
    'update',
    'up',
    'upgrade',
    'publish',
    'exec',
    'x',
    'install-test',
    'it',
    'outdated',
    'view',
    'info',
    'dlx',
    'init',
    'create',
  ]),
  yarn: new Set(['', 'install', 'add', 'upgrade', 'up', 'dlx', 'global', 'create', 'publish', 'npm']),
  pnpm: new Set(['install', 'i', 'add', 'update', 'up', 'dlx', 'create', 'publish', 'fetch']),
  bun: new Set(['install', 'i', 'add', 'update', 'x', 'create', 'publish']),
  pip: new Set(['install', 'download', 'wheel']),
  pip3: new Set(['install', 'download', 'wheel']),
  uv: new Set(['pip', 'add', 'sync', 'tool', 'run']),
  poetry: new Set(['add', 'install', 'update', 'publish']),
  conda: new Set(['install', 'update', 'create']),
  gem: new Set(['install', 'update', 'fetch']),
  bundle: new Set(['', 'install', 'update', 'add']),
  cargo: new Set(['install', 'fetch', 'update', 'publish', 'add']),
  go: new Set(['get', 'install', 'mod']),
  composer: new Set(['install', 'require', 'update', 'create-project']),
  'apt-get': new Set(['install', 'update', 'upgrade', 'dist-upgrade', 'source', 'download']),
  apt: new Set(['install', 'update', 'upgrade', 'full-upgrade', 'download']),
  yum: new Set(['install', 'update', 'upgrade']),
  dnf: new Set(['install', 'update', 'upgrade']),
  apk: new Set(['add', 'update', 'upgrade', 'fetch']),
  brew: new Set(['install', 'update', 'upgrade', 'tap', 'fetch']),
  docker: new Set(['pull', 'push', 'run', 'build', 'login']),
  snap: new Set(['install', 'refresh']),
};

/** Always dangerous, whatever the arguments. */
export const DANGEROUS_COMMANDS = new Map([
  ['sudo', 'runs as another user (sudo)'],
  ['su', 'switches user (su)'],
  ['doas', 'runs as another user (doas)'],
  ['dd', 'writes raw data (dd)'],
  ['shred', 'destroys file contents (shred)'],
  ['wipefs', 'erases file systems (wipefs)'],
  ['fdisk', 'changes partitions (fdisk)'],
  ['parted', 'changes partitions (parted)'],
  ['shutdown', 'shuts the machine down'],
  ['reboot', 'reboots the machine'],
  ['halt', 'halts the machine'],
  ['poweroff', 'powers the machine off'],
  ['mkfs', 'formats a disk (mkfs)'],
  ['crontab', 'changes scheduled jobs (crontab)'],
]);

export const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'fish', 'csh', 'tcsh']);
export const INTERPRETERS = new Set(['python', 'python3', 'node', 'perl', 'ruby', 'php', 'deno', 'bun']);
