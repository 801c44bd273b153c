/**
 * HPACK's Huffman code (RFC 7541, appendix B), for reading header strings. The code is canonical: codes of one
 * length are consecutive in symbol order, each length's first code following the last of the shorter ones. So the
 * bit length of each symbol (0-255, then 256 = EOS) is all it takes to rebuild it.
 */
const LENGTHS = [
  13, 23, 28, 28, 28, 28, 28, 28, 28, 24, 30, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 28,
  6, 10, 10, 12, 13, 6, 8, 11, 10, 10, 8, 11, 8, 6, 6, 6, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7, 8, 15, 6, 12, 10,
  13, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 8, 7, 8, 13, 19, 13, 14, 6,
  15, 5, 6, 5, 6, 5, 6, 6, 6, 5, 7, 7, 6, 6, 6, 5, 6, 7, 6, 5, 5, 6, 7, 7, 7, 7, 7, 15, 11, 14, 13, 28,
  20, 22, 20, 20, 22, 22, 22, 23, 22, 23, 23, 23, 23, 23, 24, 23, 24, 24, 22, 23, 24, 23, 23, 23, 23, 21, 22, 23, 22, 23, 23, 24,
  22, 21, 20, 22, 22, 23, 23, 21, 23, 22, 22, 24, 21, 22, 23, 23, 21, 21, 22, 21, 23, 22, 23, 23, 20, 22, 22, 22, 23, 22, 22, 23,
  26, 26, 20, 19, 22, 23, 22, 25, 26, 26, 26, 27, 27, 26, 24, 25, 19, 21, 26, 27, 27, 26, 27, 24, 21, 21, 26, 26, 28, 27, 27, 27,
  20, 24, 20, 21, 22, 21, 21, 23, 22, 22, 25, 25, 24, 24, 26, 23, 26, 27, 26, 26, 27, 27, 27, 27, 27, 28, 27, 27, 27, 27, 27, 26,
  30,
];
const EOS = 256;

/** A binary trie over the code: node n's children are at 2n and 2n+1; a leaf holds -1 - symbol. */
const trie = buildTrie();

function buildTrie(): Int32Array {
  const order = LENGTHS.map((length, symbol) => ({ length, symbol })).sort((a, b) => a.length - b.length || a.symbol - b.symbol);
  const children = new Int32Array(2 * 2 * LENGTHS.length).fill(0); // 0: no child yet (node 0 is the root)
  let nodes = 1;
  let code = 0;
  let length = order[0].length;
  for (const entry of order) {
    code <<= entry.length - length;
    length = entry.length;
    let node = 0;
    for (let bit = length - 1; bit >= 0; bit--) {
      const slot = 2 * node + ((code >>> bit) & 1);
      if (bit === 0) children[slot] = -1 - entry.symbol;
      else node = children[slot] || (children[slot] = nodes++);
    }
    code++;
  }
  return children;
}

/** The octets of a Huffman-coded string, as latin1 text; undefined if they are not a valid coding. */
export function decodeHuffman(bytes: Uint8Array, start: number, end: number): string | undefined {
  const out: number[] = [];
  let node = 0;
  let depth = 0; // bits read since the last whole symbol
  let ones = true; // ...and all of them were 1 (padding may only be a prefix of EOS)
  for (let i = start; i < end; i++) {
    const byte = bytes[i];
    for (let bit = 7; bit >= 0; bit--) {
      const b = (byte >>> bit) & 1;
      const next = trie[2 * node + b];
      depth++;
      ones &&= b === 1;
      if (next < 0) {
        const symbol = -1 - next;
        if (symbol === EOS) return undefined;
        out.push(symbol);
        node = 0;
        depth = 0;
        ones = true;
      } else if (next === 0) {
        return undefined;
      } else {
        node = next;
      }
    }
  }
  if (depth > 7 || !ones) return undefined;
  return Buffer.from(out).toString('latin1');
}
