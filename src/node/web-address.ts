// Which network addresses web_fetch may connect to: public unicast only. A page the model asks
// for must not reach this machine (loopback, 0.0.0.0), the local network (private, link-local,
// unique-local, CGNAT ranges), a cloud's metadata service (169.254.169.254, fd00:ec2::254,
// 100.100.100.200) or anything else not routed on the internet. Allowed by listing what is public,
// never by listing what is not: IPv6 outside 2000::/3 is refused, and an IPv4 address embedded in
// IPv6 (IPv4-mapped, NAT64, 6to4) is judged as that IPv4 address. The address is the one DNS gave
// (or the URL's literal, which the URL parser has already read in any spelling: decimal, octal,
// hex, short forms), so spellings cannot hide it.
import { isIPv4, isIPv6 } from 'node:net';

/** IPv4 ranges that are not public, with what they are for people. */
const IPV4_NOT_PUBLIC: readonly [string, number, string][] = [
  ['0.0.0.0', 8, 'this host (0.0.0.0/8)'],
  ['10.0.0.0', 8, 'a private network'],
  ['100.64.0.0', 10, 'a carrier-grade NAT network (shared address space)'],
  ['127.0.0.0', 8, 'this machine (loopback)'],
  ['169.254.0.0', 16, 'link-local (where cloud metadata services answer)'],
  ['172.16.0.0', 12, 'a private network'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, 'the 6to4 relay'],
  ['192.168.0.0', 16, 'a private network'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved (and broadcast)'],
];

/** Why web_fetch may not connect to `ip` (an IPv4 or IPv6 address), or undefined when it is public. */
export function addressRefusal(ip: string): string | undefined {
  if (isIPv4(ip)) return ipv4Refusal(ipv4Number(ip));
  if (isIPv6(ip)) return ipv6Refusal(ipv6Groups(ip));
  return 'not an IP address';
}

function ipv4Refusal(n: number): string | undefined {
  for (const [base, bits, what] of IPV4_NOT_PUBLIC) {
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    if ((n & mask) >>> 0 === (ipv4Number(base) & mask) >>> 0) return what;
  }
  return undefined;
}

function ipv6Refusal(g: readonly number[]): string | undefined {
  const embedded = (hi: number, lo: number) => ipv4Refusal(((hi << 16) | lo) >>> 0);
  const zerosUpTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zerosUpTo(5) && g[5] === 0xffff) return embedded(g[6]!, g[7]!); // ::ffff:a.b.c.d
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return embedded(g[6]!, g[7]!); // NAT64
  if (g[0] === 0x2002) return embedded(g[1]!, g[2]!); // 6to4
  if (zerosUpTo(7)) return g[7] === 1 ? 'this machine (loopback)' : g[7] === 0 ? 'this host (::)' : 'an IPv4-compatible address';
  const first = g[0]!;
  if ((first & 0xffc0) === 0xfe80) return 'link-local';
  if ((first & 0xfe00) === 0xfc00) return 'a unique-local network (where some cloud metadata services answer)';
  if ((first & 0xff00) === 0xff00) return 'multicast';
  if ((first & 0xe000) !== 0x2000) return 'not a global unicast address';
  if (first === 0x2001 && g[1] === 0x0db8) return 'documentation';
  if (first === 0x2001 && g[1]! < 0x0200) return 'special-purpose (Teredo, benchmarking, ORCHID)';
  return undefined;
}

function ipv4Number(ip: string): number {
  return ip.split('.').reduce((n, part) => ((n << 8) | Number(part)) >>> 0, 0);
}

/** The eight 16-bit groups of an IPv6 address (`::` expanded, a dotted IPv4 tail read as two groups). */
function ipv6Groups(ip: string): number[] {
  let text = ip
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '');
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = ipv4Number(dotted[1]!);
    text = `${text.slice(0, dotted.index)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((h) => Number.parseInt(h, 16)));
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}
