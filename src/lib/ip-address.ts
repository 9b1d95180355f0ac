/**
 * IP addresses parsed, not matched by prefix: a canonical form for comparing, and whether an
 * address is loopback (127.0.0.0/8, ::1, IPv4-mapped ::ffff:127.x.y.z in either spelling).
 * Brackets (`[::1]`) and a zone id (`fe80::1%eth0`) are ignored. Pure: no `node:*`.
 */
const V4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const GROUP = /^[0-9a-f]{1,4}$/;

const bare = (s: string) =>
  s
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/%.*$/, '');

/** The four bytes of a dotted IPv4 address, or undefined. */
function v4Bytes(a: string): number[] | undefined {
  return V4.test(a) ? a.split('.').map(Number) : undefined;
}

/** The groups of one side of `::` (a dotted IPv4 tail allowed when `last`), or undefined. */
function v6Side(s: string, last: boolean): number[] | undefined {
  if (s === '') return [];
  const out: number[] = [];
  const parts = s.split(':');
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    const b = last && i === parts.length - 1 ? v4Bytes(p) : undefined;
    if (b) out.push((b[0]! << 8) | b[1]!, (b[2]! << 8) | b[3]!);
    else if (GROUP.test(p)) out.push(parseInt(p, 16));
    else return undefined;
  }
  return out;
}

/** The 8 groups of an IPv6 address, or undefined when `a` is not one. */
function v6Groups(a: string): number[] | undefined {
  const halves = a.split('::');
  if (halves.length > 2) return undefined;
  if (halves.length === 1) {
    const g = v6Side(a, true);
    return g?.length === 8 ? g : undefined;
  }
  const head = v6Side(halves[0]!, false);
  const tail = v6Side(halves[1]!, true);
  if (!head || !tail || head.length + tail.length > 7) return undefined;
  return [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
}

/** A canonical form of an IP address (for comparing), or undefined when `s` is not one. */
export function canonicalIp(s: string): string | undefined {
  const a = bare(s);
  const v4 = v4Bytes(a);
  if (v4) return v4.join('.');
  return v6Groups(a)
    ?.map((g) => g.toString(16))
    .join(':');
}

/** 127.0.0.0/8, ::1 and IPv4-mapped 127.0.0.0/8 (`::ffff:127.0.0.1`, `::ffff:7f00:1`). */
export function isLoopbackAddress(s: string): boolean {
  const a = bare(s);
  const v4 = v4Bytes(a);
  if (v4) return v4[0] === 127;
  const g = v6Groups(a);
  if (!g) return false;
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  return (zeros(7) && g[7] === 1) || (zeros(5) && g[5] === 0xffff && g[6]! >> 8 === 127);
}

/**
 * Whether a URL's host is loopback: an IP literal by its parsed address (isLoopbackAddress; a
 * name that merely starts with `127.` is not one), or a name reserved for loopback (RFC 6761):
 * `localhost` or a name ending in `.localhost`. Case and one trailing dot are ignored.
 */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, '');
  if (canonicalIp(h) !== undefined) return isLoopbackAddress(h);
  return h === 'localhost' || h.endsWith('.localhost');
}
