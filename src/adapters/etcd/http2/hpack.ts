/**
 * HPACK (RFC 7541) for the etcd transport: a full decoder, since etcd's encoder indexes, Huffman-codes and resizes its
 * table as it likes, and the decoder must follow every block to stay in step; and an encoder of the one kind the
 * client needs, literal fields that never touch the peer's table, so a request's header block can be built once and
 * sent as often as wanted.
 */
import { decodeHuffman } from './huffman';

const STATIC: readonly (readonly [string, string])[] = [
  [':authority', ''], [':method', 'GET'], [':method', 'POST'], [':path', '/'], [':path', '/index.html'],
  [':scheme', 'http'], [':scheme', 'https'], [':status', '200'], [':status', '204'], [':status', '206'],
  [':status', '304'], [':status', '400'], [':status', '404'], [':status', '500'], ['accept-charset', ''],
  ['accept-encoding', 'gzip, deflate'], ['accept-language', ''], ['accept-ranges', ''], ['accept', ''],
  ['access-control-allow-origin', ''], ['age', ''], ['allow', ''], ['authorization', ''], ['cache-control', ''],
  ['content-disposition', ''], ['content-encoding', ''], ['content-language', ''], ['content-length', ''],
  ['content-location', ''], ['content-range', ''], ['content-type', ''], ['cookie', ''], ['date', ''], ['etag', ''],
  ['expect', ''], ['expires', ''], ['from', ''], ['host', ''], ['if-match', ''], ['if-modified-since', ''],
  ['if-none-match', ''], ['if-range', ''], ['if-unmodified-since', ''], ['last-modified', ''], ['link', ''],
  ['location', ''], ['max-forwards', ''], ['proxy-authenticate', ''], ['proxy-authorization', ''], ['range', ''],
  ['referer', ''], ['refresh', ''], ['retry-after', ''], ['server', ''], ['set-cookie', ''],
  ['strict-transport-security', ''], ['transfer-encoding', ''], ['user-agent', ''], ['vary', ''], ['via', ''],
  ['www-authenticate', ''],
];

export class HpackError extends Error {
  constructor(message: string) {
    super(`HPACK: ${message}`);
    this.name = 'HpackError';
  }
}

interface Entry {
  name: string;
  value: string;
  /** Octets it counts for in the table: name and value lengths plus 32. */
  size: number;
}

export class HpackDecoder {
  /** Newest last; HPACK index 62 is the newest. */
  private readonly table: Entry[] = [];
  private size = 0;
  private limit: number;

  /** `maxTableSize`: what this side announced in SETTINGS_HEADER_TABLE_SIZE (4096 unless it said otherwise). */
  constructor(private readonly maxTableSize = 4096) {
    this.limit = maxTableSize;
  }

  /** Each field of a whole header block, in order, to `field`; throws HpackError on a block it cannot read. */
  decode(block: Uint8Array, field: (name: string, value: string) => void): void {
    const r = { at: 0 };
    while (r.at < block.length) {
      const first = block[r.at];
      if (first & 0x80) {
        const [name, value] = this.lookup(readInt(block, r, 7));
        field(name, value);
      } else if ((first & 0xe0) === 0x20) {
        const size = readInt(block, r, 5);
        if (size > this.maxTableSize) throw new HpackError(`table size ${size} above the ${this.maxTableSize} allowed`);
        this.limit = size;
        this.evict(0);
      } else {
        const indexing = (first & 0xc0) === 0x40;
        const index = readInt(block, r, indexing ? 6 : 4);
        const name = index === 0 ? readString(block, r) : this.lookup(index)[0];
        const value = readString(block, r);
        if (indexing) this.add(name, value);
        field(name, value);
      }
    }
  }

  private lookup(index: number): readonly [string, string] {
    if (index >= 1 && index <= STATIC.length) return STATIC[index - 1];
    const entry = this.table[this.table.length - 1 - (index - STATIC.length - 1)];
    if (index < 1 || !entry) throw new HpackError(`no table entry ${index}`);
    return [entry.name, entry.value];
  }

  private add(name: string, value: string): void {
    const size = name.length + value.length + 32;
    this.evict(size);
    // An entry larger than the whole table empties it and is not kept.
    if (size <= this.limit) {
      this.table.push({ name, value, size });
      this.size += size;
    }
  }

  /** Drops the oldest entries until `room` more octets fit under the limit. */
  private evict(room: number): void {
    let drop = 0;
    while (drop < this.table.length && this.size + room > this.limit) this.size -= this.table[drop++].size;
    if (drop) this.table.splice(0, drop);
  }
}

/** An integer with an N-bit prefix, starting at r.at (whose high bits are the representation's flags). */
function readInt(block: Uint8Array, r: { at: number }, prefixBits: number): number {
  if (r.at >= block.length) throw new HpackError('block ends inside an integer');
  const mask = (1 << prefixBits) - 1;
  let value = block[r.at++] & mask;
  if (value < mask) return value;
  for (let shift = 0; ; shift += 7) {
    if (r.at >= block.length) throw new HpackError('block ends inside an integer');
    if (shift > 21) throw new HpackError('integer too large');
    const b = block[r.at++];
    value += (b & 0x7f) * 2 ** shift;
    if (!(b & 0x80)) return value;
  }
}

/** A string literal: a Huffman flag and a length, then its octets, read as latin1 (header octets one to one). */
function readString(block: Uint8Array, r: { at: number }): string {
  if (r.at >= block.length) throw new HpackError('block ends before a string');
  const huffman = (block[r.at] & 0x80) !== 0;
  const length = readInt(block, r, 7);
  const end = r.at + length;
  if (end > block.length) throw new HpackError('string runs past the block');
  const text = huffman ? decodeHuffman(block, r.at, end) : Buffer.from(block.buffer, block.byteOffset + r.at, length).toString('latin1');
  if (text === undefined) throw new HpackError('invalid Huffman coding');
  r.at = end;
  return text;
}

/**
 * A header block of literal fields without indexing (the peer's table is never touched, so the block means the
 * same every time it is sent). A name in the static table is sent as its index.
 */
export function encodeHeaderBlock(fields: readonly (readonly [string, string])[]): Buffer {
  const out: number[] = [];
  for (const [name, value] of fields) {
    const exact = STATIC.findIndex(([n, v]) => n === name && v === value && v !== '');
    if (exact >= 0) {
      writeInt(out, 0x80, 7, exact + 1);
      continue;
    }
    const named = STATIC.findIndex(([n]) => n === name);
    writeInt(out, 0x00, 4, named + 1);
    if (named < 0) writeString(out, name);
    writeString(out, value);
  }
  return Buffer.from(out);
}

function writeInt(out: number[], flags: number, prefixBits: number, value: number): void {
  const mask = (1 << prefixBits) - 1;
  if (value < mask) {
    out.push(flags | value);
    return;
  }
  out.push(flags | mask);
  for (value -= mask; value >= 0x80; value = Math.floor(value / 0x80)) out.push((value % 0x80) | 0x80);
  out.push(value);
}

function writeString(out: number[], text: string): void {
  const bytes = Buffer.from(text, 'latin1');
  writeInt(out, 0x00, 7, bytes.length);
  for (const b of bytes) out.push(b);
}
