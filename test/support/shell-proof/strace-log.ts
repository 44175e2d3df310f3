// Reads the log `strace -f -y -xx` writes into one record per system call. With -xx every
// string (paths, argv, fd decorations) is printed as \xNN escapes, so no quote, comma or
// parenthesis inside a path can confuse the split; with -f the calls of several processes
// interleave, and a call cut by another process's ("<unfinished ...>") is joined with its
// "<... name resumed>" rest before it is read.

export interface Syscall {
  pid: number;
  name: string;
  /** The arguments as printed, strings still escaped. */
  raw: string;
  /** Every quoted string among the arguments, decoded, in order. */
  strings: string[];
  /** The decoded path strace printed after the first argument (a directory fd or AT_FDCWD), if any. */
  dirfd?: string;
  /** The return value; NaN when strace printed "?" (the process was gone). */
  ret: number;
  /** The decoded path of a returned file descriptor ("/etc/passwd", "pipe:[123]"). */
  retPath?: string;
  /** The error name of a failed call ("ENOENT"). */
  errno?: string;
}

const LINE = /^(\d+)\s+(.*)$/;
const CALL = /^([a-z0-9_]+)\((.*)$/s;
const RESUMED = /^<\.\.\. ([a-z0-9_]+) resumed>(.*)$/s;
const UNFINISHED = ' <unfinished ...>';

/** Parses a whole strace log. Lines that are not system calls (signals, exits) are skipped. */
export function parseStraceLog(text: string): Syscall[] {
  const pending = new Map<number, string>();
  const calls: Syscall[] = [];
  for (const line of text.split('\n')) {
    const m = LINE.exec(line);
    if (!m) continue;
    const pid = Number(m[1]);
    let body = m[2]!;
    if (body.endsWith(UNFINISHED)) {
      pending.set(pid, body.slice(0, -UNFINISHED.length));
      continue;
    }
    const resumed = RESUMED.exec(body);
    if (resumed) {
      const head = pending.get(pid);
      pending.delete(pid);
      if (head === undefined) continue;
      body = head + resumed[2]!;
    }
    const call = parseCall(pid, body);
    if (call) calls.push(call);
  }
  return calls;
}

function parseCall(pid: number, body: string): Syscall | undefined {
  const m = CALL.exec(body);
  if (!m) return undefined;
  const rest = m[2]!;
  // The last ") = " ends the arguments: every string before it is hex-escaped.
  const ends = [...rest.matchAll(/\)\s+= /g)];
  const end = ends[ends.length - 1];
  if (!end) return undefined;
  const raw = rest.slice(0, end.index);
  const result = rest.slice(end.index! + end[0].length);
  const r = /^(-?\d+|\?|0x[0-9a-f]+)(?:<([^>]*)>)?(?: ([A-Z][A-Z0-9_]+))?/.exec(result);
  const dirfd = /^(?:AT_FDCWD|\d+)<([^>]*)>/.exec(raw);
  return {
    pid,
    name: m[1]!,
    raw,
    strings: [...raw.matchAll(/"((?:\\x[0-9a-f]{2})*)"/g)].map((s) => decodeHex(s[1]!)),
    dirfd: dirfd ? decodeHex(dirfd[1]!) : undefined,
    ret: r && r[1] !== '?' ? Number(r[1]) : Number.NaN,
    retPath: r?.[2] !== undefined ? decodeHex(r[2]) : undefined,
    errno: r?.[3],
  };
}

/** "\x2f\x65" → "/e"; text that is not escaped (e.g. "pipe:[12]") is kept as is. */
function decodeHex(s: string): string {
  if (!s.includes('\\x')) return s;
  const bytes: number[] = [];
  for (let i = 0; i < s.length; ) {
    if (s.startsWith('\\x', i)) {
      bytes.push(parseInt(s.slice(i + 2, i + 4), 16));
      i += 4;
    } else bytes.push(s.charCodeAt(i++));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** The open flags of an open/openat/openat2 call ("O_WRONLY|O_CREAT"). */
export function openFlags(call: Syscall): string {
  if (call.name === 'openat2') return /flags=([A-Z0-9_|]+)/.exec(call.raw)?.[1] ?? '';
  if (call.name === 'creat') return 'O_CREAT|O_WRONLY|O_TRUNC';
  // The flags follow the path string: `"\x2e\x65", O_RDONLY|O_CLOEXEC`.
  return /"(?:\\x[0-9a-f]{2})*", ([A-Z0-9_|]+)/.exec(call.raw)?.[1] ?? '';
}

/** The address family of a connect/sendto/sendmsg/bind call, and a Unix socket's path. */
export function socketAddress(call: Syscall): { family: string; unixPath?: string } | undefined {
  const fam = /sa_family=(AF_[A-Z0-9]+)/.exec(call.raw)?.[1];
  if (!fam) return undefined;
  const sun = /sun_path=(@?)"((?:\\x[0-9a-f]{2})*)"/.exec(call.raw);
  return { family: fam, unixPath: sun ? sun[1] + decodeHex(sun[2]!) : undefined };
}
