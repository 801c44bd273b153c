/**
 * etcd's answers (TxnResponse, RangeResponse, WatchResponse) read by hand from protobuf's wire format, for the fields
 * this adapter uses. protobufjs builds an object per message with its defaults, and a Long object per int64 field
 * (four or five per key-value) that the caller turns into a number at once; every write pays for it twice, in its
 * answer and in the watch event it causes. Here the fields go straight into the adapter's own shapes, revisions as
 * numbers, bytes as views of the message (as protobufjs gives them). Unknown fields are skipped, a truncated message
 * throws. test/unit/storage/response-decoding.test.ts checks the results against protobufjs's on etcd's rpc.proto.
 */

export interface EtcdKeyValue {
  key: Buffer;
  value: Buffer;
  create_revision: number;
  mod_revision: number;
}

export interface RangeResponse {
  revision: number;
  kvs: EtcdKeyValue[];
  more: boolean;
  count: number;
}

export interface TxnResponse {
  revision: number;
  succeeded: boolean;
  /** The key-values of the first range in the responses (a failed compare's current value). */
  rangeKvs: EtcdKeyValue[];
}

export interface WatchEvent {
  /** 0 a put, 1 a delete (mvccpb.Event.EventType). */
  type: number;
  kv: EtcdKeyValue;
}

export interface WatchResponse {
  revision: number;
  created: boolean;
  canceled: boolean;
  compactRevision: number;
  cancelReason: string;
  events: WatchEvent[];
}

const VARINT = 0;
const FIXED64 = 1;
const LEN = 2;
const FIXED32 = 5;

const empty = Buffer.alloc(0);

class Truncated extends RangeError {
  constructor() {
    super('truncated protobuf message from etcd');
  }
}

/** A cursor over one message (or an embedded message's bytes, [pos, end)). */
class Reader {
  constructor(
    readonly buf: Buffer,
    public pos: number,
    readonly end: number,
  ) {}

  get more(): boolean {
    return this.pos < this.end;
  }

  /** A varint of up to 32 significant bits (tags, lengths, enums, bools). */
  uint32(): number {
    let result = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      if (this.pos >= this.end) throw new Truncated();
      const b = this.buf[this.pos++];
      result += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return result >>> 0;
    }
    // A longer varint (a negative int32 is ten bytes): its low 32 bits are what a uint32 reads.
    this.skipVarint();
    return result >>> 0;
  }

  /** An int64 as a number: exact below 2^53 (revisions), negative ones (a watch_id of -1) by two's complement. */
  int64(): number {
    let lo = 0;
    let hi = 0;
    let shift = 0;
    for (;;) {
      if (this.pos >= this.end) throw new Truncated();
      const b = this.buf[this.pos++];
      if (shift < 28) lo |= (b & 0x7f) << shift;
      else if (shift === 28) {
        lo |= (b & 0x0f) << 28;
        hi |= (b & 0x7f) >>> 4;
      } else hi |= (b & 0x7f) << (shift - 32);
      if (b < 0x80) break;
      shift += 7;
      if (shift >= 70) throw new RangeError('a varint of more than ten bytes from etcd');
    }
    return (hi | 0) * 0x100000000 + (lo >>> 0);
  }

  bool(): boolean {
    return this.int64() !== 0;
  }

  /** A length-delimited field's [start, end). */
  span(): number {
    const length = this.uint32();
    const start = this.pos;
    if (start + length > this.end) throw new Truncated();
    this.pos = start + length;
    return start;
  }

  bytes(): Buffer {
    const start = this.span();
    return start === this.pos ? empty : this.buf.subarray(start, this.pos);
  }

  /** The embedded message of a length-delimited field. */
  message(): Reader {
    const start = this.span();
    return new Reader(this.buf, start, this.pos);
  }

  skip(wire: number): void {
    if (wire === VARINT) this.skipVarint();
    else if (wire === LEN) this.span();
    else if (wire === FIXED64) this.advance(8);
    else if (wire === FIXED32) this.advance(4);
    else throw new RangeError(`protobuf wire type ${wire} from etcd`);
  }

  private skipVarint(): void {
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new Truncated();
      if (this.buf[this.pos++] < 0x80) return;
    }
    throw new RangeError('a varint of more than ten bytes from etcd');
  }

  private advance(n: number): void {
    if (this.pos + n > this.end) throw new Truncated();
    this.pos += n;
  }
}

/** ResponseHeader: its revision (field 3). */
function headerRevision(r: Reader): number {
  let revision = 0;
  while (r.more) {
    const tag = r.uint32();
    if (tag === ((3 << 3) | VARINT)) revision = r.int64();
    else r.skip(tag & 7);
  }
  return revision;
}

/** mvccpb.KeyValue: key 1, create_revision 2, mod_revision 3, value 5. */
function keyValue(r: Reader): EtcdKeyValue {
  const kv: EtcdKeyValue = { key: empty, value: empty, create_revision: 0, mod_revision: 0 };
  while (r.more) {
    const tag = r.uint32();
    switch (tag) {
      case (1 << 3) | LEN:
        kv.key = r.bytes();
        break;
      case (2 << 3) | VARINT:
        kv.create_revision = r.int64();
        break;
      case (3 << 3) | VARINT:
        kv.mod_revision = r.int64();
        break;
      case (5 << 3) | LEN:
        kv.value = r.bytes();
        break;
      default:
        r.skip(tag & 7);
    }
  }
  return kv;
}

/** RangeResponse: header 1, kvs 2, more 3, count 4. */
function range(r: Reader): RangeResponse {
  const res: RangeResponse = { revision: 0, kvs: [], more: false, count: 0 };
  while (r.more) {
    const tag = r.uint32();
    switch (tag) {
      case (1 << 3) | LEN:
        res.revision = headerRevision(r.message());
        break;
      case (2 << 3) | LEN:
        res.kvs.push(keyValue(r.message()));
        break;
      case (3 << 3) | VARINT:
        res.more = r.bool();
        break;
      case (4 << 3) | VARINT:
        res.count = r.int64();
        break;
      default:
        r.skip(tag & 7);
    }
  }
  return res;
}

export function decodeRangeResponse(buf: Buffer): RangeResponse {
  return range(new Reader(buf, 0, buf.length));
}

/** TxnResponse: header 1, succeeded 2, responses 3 (ResponseOp, whose response_range is field 1). */
export function decodeTxnResponse(buf: Buffer): TxnResponse {
  const r = new Reader(buf, 0, buf.length);
  const res: TxnResponse = { revision: 0, succeeded: false, rangeKvs: [] };
  let ranged = false;
  while (r.more) {
    const tag = r.uint32();
    switch (tag) {
      case (1 << 3) | LEN:
        res.revision = headerRevision(r.message());
        break;
      case (2 << 3) | VARINT:
        res.succeeded = r.bool();
        break;
      case (3 << 3) | LEN: {
        const op = r.message();
        while (op.more) {
          const opTag = op.uint32();
          // The first range among the responses: a failed compare's current value.
          if (opTag === ((1 << 3) | LEN) && !ranged) {
            res.rangeKvs = range(op.message()).kvs;
            ranged = true;
          } else op.skip(opTag & 7);
        }
        break;
      }
      default:
        r.skip(tag & 7);
    }
  }
  return res;
}

/** mvccpb.Event: type 1, kv 2 (prev_kv, field 3, is never asked for). */
function event(r: Reader): WatchEvent {
  let type = 0;
  let kv: EtcdKeyValue | undefined;
  while (r.more) {
    const tag = r.uint32();
    if (tag === ((1 << 3) | VARINT)) type = r.uint32();
    else if (tag === ((2 << 3) | LEN)) kv = keyValue(r.message());
    else r.skip(tag & 7);
  }
  return { type, kv: kv ?? { key: empty, value: empty, create_revision: 0, mod_revision: 0 } };
}

/** WatchResponse: header 1, created 3, canceled 4, compact_revision 5, cancel_reason 6, events 11. */
export function decodeWatchResponse(buf: Buffer): WatchResponse {
  const r = new Reader(buf, 0, buf.length);
  const res: WatchResponse = { revision: 0, created: false, canceled: false, compactRevision: 0, cancelReason: '', events: [] };
  while (r.more) {
    const tag = r.uint32();
    switch (tag) {
      case (1 << 3) | LEN:
        res.revision = headerRevision(r.message());
        break;
      case (3 << 3) | VARINT:
        res.created = r.bool();
        break;
      case (4 << 3) | VARINT:
        res.canceled = r.bool();
        break;
      case (5 << 3) | VARINT:
        res.compactRevision = r.int64();
        break;
      case (6 << 3) | LEN:
        res.cancelReason = r.bytes().toString('utf8');
        break;
      case (11 << 3) | LEN:
        res.events.push(event(r.message()));
        break;
      default:
        r.skip(tag & 7);
    }
  }
  return res;
}
