/**
 * etcd's TxnRequest in protobuf's wire format, written by hand for the shapes this adapter sends: compares on one
 * key's create or mod revision, and a put, a range or a delete of one key. protobufjs's writer allocates an
 * operation per field and copies a put's value into its result; here the request is sized first and written once,
 * and a large value is not copied at all but sent as a part of its own (a 900 KB ConfigMap's replace then maps and
 * copies 900 KB less). The bytes are the ones protobufjs writes for the same request
 * (test/unit/storage/txn-encoding.test.ts compares them).
 */
import { LEN, VARINT, tag } from './wire-format';

export interface Compare {
  key: Buffer;
  target: 'Create' | 'Mod';
  result: 'Equal' | 'Greater';
  create_revision?: number;
  mod_revision?: number;
}

export type RequestOp =
  | { request_put: { key: Buffer; value: Buffer; lease?: string } }
  | { request_range: { key: Buffer } }
  | { request_delete_range: { key: Buffer } };

export interface TxnRequest {
  compare: Compare[];
  success: RequestOp[];
  failure: RequestOp[];
}

export const compareTarget = { Create: 1, Mod: 2 } as const;
export const compareResult = { Equal: 0, Greater: 1 } as const;

/** From this size on a put's value is sent as it is, behind the bytes before it, rather than copied among them. */
const valueByReference = 16 * 1024;


/** Bytes of a varint of a non-negative safe integer. */
function varintSize(n: number): number {
  let size = 1;
  while (n >= 128) {
    n = Math.floor(n / 128);
    size++;
  }
  return size;
}

/** A lease ID (a decimal int64, beyond a double's precision) as its varint bytes. */
function leaseVarint(lease: string): Buffer {
  let v = BigInt.asUintN(64, BigInt(lease));
  const out: number[] = [];
  while (v >= 128n) {
    out.push(Number(v & 127n) | 128);
    v >>= 7n;
  }
  out.push(Number(v));
  return Buffer.from(out);
}

/** A length-delimited field of `length` bytes: its tag, its length and the bytes. */
const fieldSize = (length: number) => 1 + varintSize(length) + length;

function compareSize(c: Compare): number {
  let size = 2 + 2 + fieldSize(c.key.length); // result and target: one-byte tags and values
  if (c.create_revision !== undefined) size += 1 + varintSize(c.create_revision);
  if (c.mod_revision !== undefined) size += 1 + varintSize(c.mod_revision);
  return size;
}

/** What a RequestOp holds: its field in RequestOp, and the one-key request inside. */
function opParts(op: RequestOp): { field: number; key: Buffer; value?: Buffer; lease?: Buffer } {
  if ('request_put' in op) {
    const { key, value, lease } = op.request_put;
    return { field: 2, key, value, lease: lease === undefined ? undefined : leaseVarint(lease) };
  }
  if ('request_range' in op) return { field: 1, key: op.request_range.key };
  return { field: 3, key: op.request_delete_range.key };
}

type Op = ReturnType<typeof opParts>;

function innerSize(op: Op): number {
  let size = fieldSize(op.key.length);
  if (op.value) size += fieldSize(op.value.length);
  if (op.lease) size += 1 + op.lease.length;
  return size;
}

/** Writes into one buffer sized for the whole request but for a value sent by reference. */
class Writer {
  private readonly parts: Buffer[] = [];
  private at = 0;
  /** Where the part being written began. */
  private start = 0;

  constructor(private readonly buf: Buffer) {}

  byte(b: number): void {
    this.buf[this.at++] = b;
  }

  varint(n: number): void {
    while (n >= 128) {
      this.buf[this.at++] = (n % 128) | 128;
      n = Math.floor(n / 128);
    }
    this.buf[this.at++] = n;
  }

  bytes(field: number, b: Uint8Array): void {
    this.byte(tag(field, LEN));
    this.varint(b.length);
    this.raw(b);
  }

  raw(b: Uint8Array): void {
    this.buf.set(b, this.at);
    this.at += b.length;
  }

  /** `b` goes out as it is, between what was written so far and what comes next. */
  reference(b: Buffer): void {
    this.parts.push(this.buf.subarray(this.start, this.at), b);
    this.start = this.at;
  }

  end(): Buffer[] {
    if (this.at !== this.buf.length) throw new Error(`txn encoding: wrote ${this.at} of ${this.buf.length} bytes`);
    this.parts.push(this.buf.subarray(this.start, this.at));
    return this.parts;
  }
}

/** The encoded TxnRequest: one buffer, or (with a large value) the parts to send in order. */
export function encodeTxn(req: TxnRequest): Buffer | Buffer[] {
  const groups = [
    { field: 2, ops: req.success.map(opParts) },
    { field: 3, ops: req.failure.map(opParts) },
  ];
  let size = 0;
  for (const c of req.compare) size += fieldSize(compareSize(c));
  let large: Buffer | undefined;
  for (const g of groups) {
    for (const op of g.ops) {
      size += fieldSize(fieldSize(innerSize(op)));
      if (op.value && op.value.length >= valueByReference && !large) large = op.value;
    }
  }
  const w = new Writer(Buffer.allocUnsafe(large ? size - large.length : size));
  for (const c of req.compare) {
    w.byte(tag(1, LEN));
    w.varint(compareSize(c));
    w.byte(tag(1, VARINT));
    w.byte(compareResult[c.result]);
    w.byte(tag(2, VARINT));
    w.byte(compareTarget[c.target]);
    w.bytes(3, c.key);
    if (c.create_revision !== undefined) {
      w.byte(tag(5, VARINT));
      w.varint(c.create_revision);
    }
    if (c.mod_revision !== undefined) {
      w.byte(tag(6, VARINT));
      w.varint(c.mod_revision);
    }
  }
  for (const g of groups) {
    for (const op of g.ops) {
      const inner = innerSize(op);
      w.byte(tag(g.field, LEN));
      w.varint(fieldSize(inner));
      w.byte(tag(op.field, LEN));
      w.varint(inner);
      w.bytes(1, op.key);
      if (op.value) {
        w.byte(tag(2, LEN));
        w.varint(op.value.length);
        if (op.value === large) w.reference(large);
        else w.raw(op.value);
      }
      if (op.lease) {
        w.byte(tag(3, VARINT));
        w.raw(op.lease);
      }
    }
  }
  const parts = w.end();
  return large ? parts : parts[0];
}
