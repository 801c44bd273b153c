/**
 * etcd's answers (TxnResponse, RangeResponse, WatchResponse) read by hand from protobuf's wire format, for the fields
 * this adapter uses. protobufjs builds an object per message with its defaults, and a Long object per int64 field
 * (four or five per key-value) that the caller turns into a number at once; every write pays for it twice, in its
 * answer and in the watch event it causes. Here the fields go straight into the adapter's own shapes, revisions as
 * numbers, bytes as views of the message (as protobufjs gives them). Unknown fields are skipped, a truncated message
 * throws. test/unit/storage/response-decoding.test.ts checks the results against protobufjs's on etcd's rpc.proto.
 */
import { FIXED32, FIXED64, LEN, VARINT, tag } from './wire-format';

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

const empty = Buffer.alloc(0);

/** What an event without a key-value reads as (etcd always sends one); shared, never changed. */
const noKeyValue: EtcdKeyValue = Object.freeze({ key: empty, value: empty, create_revision: 0, mod_revision: 0 });

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

/** A message's fields this adapter reads, by tag (field number and wire type), each read into `m`. */
type Fields<T> = Record<number, (m: T, r: Reader) => void>;

/** Reads the message's fields into `m` as `fields` say; the others are skipped. */
function read<T>(r: Reader, m: T, fields: Fields<T>): T {
  while (r.more) {
    const t = r.uint32();
    const field = fields[t];
    if (field) field(m, r);
    else r.skip(t & 7);
  }
  return m;
}

/** ResponseHeader: only its revision (field 3). */
const headerFields: Fields<{ revision: number }> = {
  [tag(3, VARINT)]: (m, r) => (m.revision = r.int64()),
};

const headerRevision = (r: Reader): number => read(r, { revision: 0 }, headerFields).revision;

/** mvccpb.KeyValue: key 1, create_revision 2, mod_revision 3, value 5. */
const keyValueFields: Fields<EtcdKeyValue> = {
  [tag(1, LEN)]: (m, r) => (m.key = r.bytes()),
  [tag(2, VARINT)]: (m, r) => (m.create_revision = r.int64()),
  [tag(3, VARINT)]: (m, r) => (m.mod_revision = r.int64()),
  [tag(5, LEN)]: (m, r) => (m.value = r.bytes()),
};

const keyValue = (r: Reader): EtcdKeyValue => read(r, { key: empty, value: empty, create_revision: 0, mod_revision: 0 }, keyValueFields);

/** RangeResponse: header 1, kvs 2, more 3, count 4. */
const rangeFields: Fields<RangeResponse> = {
  [tag(1, LEN)]: (m, r) => (m.revision = headerRevision(r.message())),
  [tag(2, LEN)]: (m, r) => m.kvs.push(keyValue(r.message())),
  [tag(3, VARINT)]: (m, r) => (m.more = r.bool()),
  [tag(4, VARINT)]: (m, r) => (m.count = r.int64()),
};

const range = (r: Reader): RangeResponse => read(r, { revision: 0, kvs: [], more: false, count: 0 }, rangeFields);

export function decodeRangeResponse(buf: Buffer): RangeResponse {
  return range(new Reader(buf, 0, buf.length));
}

/** A TxnResponse being read: `ranged` once the first range among its responses has been taken. */
type TxnReading = TxnResponse & { ranged: boolean };

/** ResponseOp: its response_range (field 1), the first of the Txn's: a failed compare's current value. */
const responseOpFields: Fields<TxnReading> = {
  [tag(1, LEN)]: (m, r) => {
    if (m.ranged) return void r.message();
    m.rangeKvs = range(r.message()).kvs;
    m.ranged = true;
  },
};

/** TxnResponse: header 1, succeeded 2, responses 3. */
const txnFields: Fields<TxnReading> = {
  [tag(1, LEN)]: (m, r) => (m.revision = headerRevision(r.message())),
  [tag(2, VARINT)]: (m, r) => (m.succeeded = r.bool()),
  [tag(3, LEN)]: (m, r) => void read(r.message(), m, responseOpFields),
};

export function decodeTxnResponse(buf: Buffer): TxnResponse {
  const m = read(new Reader(buf, 0, buf.length), { revision: 0, succeeded: false, rangeKvs: [], ranged: false }, txnFields);
  return { revision: m.revision, succeeded: m.succeeded, rangeKvs: m.rangeKvs };
}

/** mvccpb.Event: type 1, kv 2 (prev_kv, field 3, is never asked for). */
const eventFields: Fields<WatchEvent> = {
  [tag(1, VARINT)]: (m, r) => (m.type = r.uint32()),
  [tag(2, LEN)]: (m, r) => (m.kv = keyValue(r.message())),
};

const event = (r: Reader): WatchEvent => read(r, { type: 0, kv: noKeyValue }, eventFields);

/** WatchResponse: header 1, created 3, canceled 4, compact_revision 5, cancel_reason 6, events 11. */
const watchFields: Fields<WatchResponse> = {
  [tag(1, LEN)]: (m, r) => (m.revision = headerRevision(r.message())),
  [tag(3, VARINT)]: (m, r) => (m.created = r.bool()),
  [tag(4, VARINT)]: (m, r) => (m.canceled = r.bool()),
  [tag(5, VARINT)]: (m, r) => (m.compactRevision = r.int64()),
  [tag(6, LEN)]: (m, r) => (m.cancelReason = r.bytes().toString('utf8')),
  [tag(11, LEN)]: (m, r) => m.events.push(event(r.message())),
};

export function decodeWatchResponse(buf: Buffer): WatchResponse {
  const initial: WatchResponse = { revision: 0, created: false, canceled: false, compactRevision: 0, cancelReason: '', events: [] };
  return read(new Reader(buf, 0, buf.length), initial, watchFields);
}
