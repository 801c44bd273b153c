/**
 * Strings in their order, each once. V8 hashes a string longer than 16,383 characters by its length alone, so a Set
 * of many long strings of one length compares each with all the others (a few KB of request can cost minutes).
 * Such strings are keyed by a digest of their whole content first, and compared whole only with those of the same
 * digest.
 */
const hashedWhole = 16_383;

export function uniqueStrings(values: readonly string[]): string[] {
  const seen = new Set<string>();
  const long = new Map<string, string[]>();
  const out: string[] = [];
  for (const v of values) {
    if (v.length <= hashedWhole) {
      if (seen.has(v)) continue;
      seen.add(v);
    } else {
      const key = digest(v);
      const same = long.get(key);
      if (same?.includes(v)) continue;
      if (same) same.push(v);
      else long.set(key, [v]);
    }
    out.push(v);
  }
  return out;
}

/** Two 32-bit hashes of every character (FNV-1a and a polynomial one) and the length: a short key V8 hashes whole. */
function digest(s: string): string {
  let fnv = 0x811c9dc5;
  let poly = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    fnv = Math.imul(fnv ^ c, 16777619);
    poly = (Math.imul(poly, 31) + c) | 0;
  }
  return `${s.length}:${fnv >>> 0}:${poly >>> 0}`;
}
