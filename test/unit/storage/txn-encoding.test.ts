/**
 * The hand-written TxnRequest encoding writes the bytes protobufjs writes from etcd's own rpc.proto for every shape
 * the etcd adapter sends, and sends a large put's value as it is, uncopied.
 */
import * as protobuf from 'protobufjs';
import { compareResult, compareTarget, encodeTxn } from '../../../src/adapters/etcd/txn-encoding';
import { framed } from '../../../src/adapters/etcd/grpc-messages';
import type { TxnRequest } from '../../../src/adapters/etcd/etcd-kv';

const txnType = new protobuf.Root().loadSync(require.resolve('etcd3/proto/rpc.proto'), { keepCase: true }).lookupType('etcdserverpb.TxnRequest');

/** What protobufjs writes for the request (the adapter's encoding before this one). */
function reference(req: TxnRequest): Buffer {
  const wire = {
    compare: req.compare.map((c) => ({ ...c, target: compareTarget[c.target], result: compareResult[c.result] })),
    success: req.success,
    failure: req.failure,
  };
  return Buffer.from(txnType.encode(wire).finish());
}

const joined = (e: Buffer | Buffer[]) => (Array.isArray(e) ? Buffer.concat(e) : e);
const key = (n: number) => Buffer.from(`/registry/configmaps/ns/${'k'.repeat(n)}`);

const create = (k: Buffer, value: Buffer, lease?: string): TxnRequest => ({
  compare: [{ key: k, target: 'Create', result: 'Equal', create_revision: 0 }],
  success: [{ request_put: lease === undefined ? { key: k, value } : { key: k, value, lease } }],
  failure: [{ request_range: { key: k } }],
});

const update = (k: Buffer, value: Buffer, rev: number, lease?: string): TxnRequest => ({
  compare: [
    { key: k, target: 'Mod', result: 'Equal', mod_revision: rev },
    { key: k, target: 'Create', result: 'Greater', create_revision: 0 },
  ],
  success: [{ request_put: lease === undefined ? { key: k, value } : { key: k, value, lease } }],
  failure: [{ request_range: { key: k } }],
});

const remove = (k: Buffer, rev: number): TxnRequest => ({
  compare: [
    { key: k, target: 'Mod', result: 'Equal', mod_revision: rev },
    { key: k, target: 'Create', result: 'Greater', create_revision: 0 },
  ],
  success: [{ request_delete_range: { key: k } }],
  failure: [{ request_range: { key: k } }],
});

const cases: [string, TxnRequest][] = [
  ['a create', create(key(5), Buffer.from('{"kind":"ConfigMap"}'))],
  ['a create of an empty value', create(key(1), Buffer.alloc(0))],
  ['a create with a lease beyond 2^53', create(key(8), Buffer.from('{}'), '7587861031296385035')],
  ['a create with a small lease', create(key(8), Buffer.from('{}'), '1')],
  ['an update at a large revision', update(key(200), Buffer.alloc(300, 'x'), 2 ** 40 + 7)],
  ['an update at revision 127 and 128', update(key(2), Buffer.from('v'), 128)],
  ['an update with a lease', update(key(3), Buffer.alloc(20_000, 'y'), 5, '300')],
  ['a delete', remove(key(4), 99)],
  ['a key of 200 bytes (two-byte lengths)', create(key(200), Buffer.alloc(5000, 'z'))],
];

test.each(cases)('%s is encoded as protobufjs encodes it', (_name, req) => {
  expect(joined(encodeTxn(req))).toEqual(reference(req));
});

test('a large value is sent as it is, between the bytes before and after it', () => {
  const value = Buffer.alloc(900 * 1024, 'v');
  const req = update(key(10), value, 42, '7587861031296385035');
  const encoded = encodeTxn(req);
  expect(Array.isArray(encoded)).toBe(true);
  const parts = encoded as Buffer[];
  expect(parts).toHaveLength(3);
  expect(parts[1]).toBe(value);
  expect(Buffer.concat(parts)).toEqual(reference(req));
  // Framed for gRPC: the prefix, then the parts, still uncopied.
  const pieces = framed(parts);
  expect(pieces.some((p) => p.buffer === value.buffer && p.length === value.length)).toBe(true);
  const message = reference(req);
  expect(Buffer.concat(pieces)).toEqual(Buffer.concat([Buffer.from([0, message.length >>> 24, (message.length >>> 16) & 255, (message.length >>> 8) & 255, message.length & 255]), message]));
});

test('a small value is copied into one buffer', () => {
  expect(Buffer.isBuffer(encodeTxn(create(key(3), Buffer.alloc(1000, 'a'))))).toBe(true);
});
