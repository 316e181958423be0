import { isIPv4, isIPv6 } from 'node:net';

// Whole hextets of an IPv6 address written in any of its forms (`::`, an embedded IPv4 tail, a zone).
function hextets(address: string): number[] {
  const [head, tail] = address.split('%')[0]!.split('::') as [string, string | undefined];
  const parts = (text: string) => (text === '' ? [] : text.split(':').flatMap((part) => (part.includes('.') ? fromIPv4(part) : [parseInt(part, 16)])));
  const start = parts(head);
  const end = tail === undefined ? [] : parts(tail);
  return [...start, ...Array<number>(Math.max(0, 8 - start.length - end.length)).fill(0), ...end];
}

const fromIPv4 = (v4: string) => {
  const [a, b, c, d] = v4.split('.').map(Number) as [number, number, number, number];
  return [(a << 8) | b, (c << 8) | d];
};

/**
 * The client a login attempt is counted against: an IPv4 address (also when it arrives IPv4-mapped over dual-stack
 * IPv6), or an IPv6 /64, since one host is routinely given a whole /64 and picks any address in it.
 */
export function clientKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped && isIPv4(mapped[1]!)) return mapped[1]!;
  if (!isIPv6(address)) return address;
  const words = hextets(address);
  // ::ffff:a.b.c.d written in hex (::ffff:7f00:1) is the same IPv4 client.
  if (words.slice(0, 5).every((w) => w === 0) && words[5] === 0xffff) return [words[6]! >> 8, words[6]! & 255, words[7]! >> 8, words[7]! & 255].join('.');
  return `${words
    .slice(0, 4)
    .map((w) => w.toString(16))
    .join(':')}::/64`;
}
