/**
 * The network formats of the CRD format registry, as Go parses them:
 * net.ParseIP (and k8s.io/utils' sloppy variant, which reads IPv4 octets with
 * leading zeros), ParseCIDR, ParseMAC. A value is valid exactly when Go's
 * parser would return something, so these follow Go's grammar rather than
 * Node's net.isIP.
 */

const isDigit = (c: string) => c >= '0' && c <= '9';
const hexValue = (c: string) => (/^[0-9a-fA-F]$/.test(c) ? parseInt(c, 16) : -1);

/** Dotted-quad IPv4; `sloppy` accepts leading zeros (read as decimal), as k8s.io/utils/net does. */
export function parseIPv4(s: string, sloppy: boolean): boolean {
  const parts = s.split('.');
  if (parts.length !== 4) return false;
  return parts.every((p) => {
    if (p.length === 0 || ![...p].every(isDigit)) return false;
    if (!sloppy && p.length > 1 && p[0] === '0') return false;
    // Go's dtoi stops counting at 0xFFFFFF; anything that large is out of range anyway.
    return Number(p) <= 255;
  });
}

/** RFC 4291 text form: up to eight hex groups, one `::`, an IPv4 tail in place of the last two. */
export function parseIPv6(s: string, sloppy: boolean): boolean {
  let groups = 0;
  let ellipsis = -1;
  let i = 0;
  if (s.startsWith('::')) {
    ellipsis = 0;
    i = 2;
    if (i === s.length) return true;
  }
  while (i < s.length) {
    let j = i;
    while (j < s.length && j - i < 5 && hexValue(s[j]) >= 0) j++;
    if (j === i || j - i > 4) return false;
    if (j < s.length && s[j] === '.') {
      // An IPv4 tail takes two groups and must end the address.
      if (ellipsis < 0 && groups !== 6) return false;
      if (groups + 2 > 8) return false;
      if (!parseIPv4(s.slice(i), sloppy)) return false;
      groups += 2;
      i = s.length;
      break;
    }
    groups++;
    i = j;
    if (i === s.length) break;
    if (s[i] !== ':' || i + 1 === s.length) return false;
    i++;
    if (s[i] === ':') {
      if (ellipsis >= 0) return false;
      ellipsis = groups;
      i++;
      if (i === s.length) break;
    }
    if (groups >= 8) return false;
  }
  if (ellipsis < 0) return groups === 8;
  return groups < 8;
}

/** net.ParseIP (or the sloppy variant): the first '.' or ':' decides the family. */
export function parseIP(s: string, sloppy: boolean): boolean {
  for (const c of s) {
    if (c === '.') return parseIPv4(s, sloppy);
    if (c === ':') return parseIPv6(s, sloppy);
  }
  return false;
}

/** ParseCIDRSloppy: address, '/', a decimal prefix length no longer than the address. */
export function parseCIDR(s: string): boolean {
  const slash = s.indexOf('/');
  if (slash < 0) return false;
  const addr = s.slice(0, slash);
  const mask = s.slice(slash + 1);
  let bits: number;
  if (parseIPv4(addr, true)) bits = 32;
  else if (parseIPv6(addr, true)) bits = 128;
  else return false;
  if (mask.length === 0 || ![...mask].every(isDigit)) return false;
  return Number(mask) <= bits;
}

const macLengths = new Set([6, 8, 20]);

/** net.ParseMAC: 6, 8 or 20 octets as xx:xx…, xx-xx… or xxxx.xxxx…. */
export function parseMAC(s: string): boolean {
  if (s.length < 14) return false;
  const hexPair = (at: number) => hexValue(s[at]) >= 0 && hexValue(s[at + 1]) >= 0;
  if (s[2] === ':' || s[2] === '-') {
    if ((s.length + 1) % 3 !== 0) return false;
    const n = (s.length + 1) / 3;
    if (!macLengths.has(n)) return false;
    for (let x = 0; x < n; x++) {
      const at = x * 3;
      if (!hexPair(at)) return false;
      if (x < n - 1 && s[at + 2] !== s[2]) return false;
    }
    return true;
  }
  if (s[4] === '.') {
    if ((s.length + 1) % 5 !== 0) return false;
    const n = (2 * (s.length + 1)) / 5;
    if (!macLengths.has(n)) return false;
    for (let x = 0; x < n / 2; x++) {
      const at = x * 5;
      if (!hexPair(at) || !hexPair(at + 2)) return false;
      if (x < n / 2 - 1 && s[at + 4] !== '.') return false;
    }
    return true;
  }
  return false;
}
