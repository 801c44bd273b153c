/**
 * Go's string order: by UTF-8 bytes. UTF-16 code units sort the same way except where a surrogate (half of a code
 * point past U+FFFF, or a lone one, which Go's decoding turns into U+FFFD) meets another unit in U+D800–U+FFFF; only
 * then are the two strings encoded and compared as bytes. Sorting keys calls this often: no allocation otherwise.
 */
export function compareGoStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800 && (isSurrogate(x) || isSurrogate(y))) return byBytes(a, b);
    return x < y ? -1 : 1;
  }
  if (n > 0 && isSurrogate(a.charCodeAt(n - 1))) return byBytes(a, b);
  return a.length < b.length ? -1 : 1;
}

const isSurrogate = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdfff;

function byBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}
