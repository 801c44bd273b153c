/**
 * The hand-written decoding of etcd's answers reads what protobufjs reads from etcd's own rpc.proto (the adapter's
 * decoding before it), for every field the adapter uses: revisions small and beyond 2^32, a watch_id of -1, keys and
 * values empty, short and large, several events and key-values, the first range among a Txn's responses, and fields
 * it does not know. A truncated message throws rather than answering with what it read so far.
 */
import * as protobuf from 'protobufjs';
import Long from 'long';
import { decodeRangeResponse, decodeTxnResponse, decodeWatchResponse } from '../../../src/adapters/etcd/response-decoding';

const root = new protobuf.Root().loadSync(require.resolve('etcd3/proto/rpc.proto'), { keepCase: true });
const types = {
  txn: root.lookupType('etcdserverpb.TxnResponse'),
  range: root.lookupType('etcdserverpb.RangeResponse'),
  watch: root.lookupType('etcdserverpb.WatchResponse'),
};

type Int64 = number | Long | null | undefined;
const num = (v: Int64) => (v === null || v === undefined ? 0 : typeof v === 'number' ? v : v.toNumber());
const empty = Buffer.alloc(0);
interface WireKv { key?: Uint8Array; value?: Uint8Array; create_revision?: Int64; mod_revision?: Int64 }
const kvOf = (kv: WireKv | null | undefined) => ({
  key: Buffer.from(kv?.key ?? empty),
  value: Buffer.from(kv?.value ?? empty),
  create_revision: num(kv?.create_revision),
  mod_revision: num(kv?.mod_revision),
});

/** What the adapter made of protobufjs's decoding, field for field. */
function referenceTxn(bytes: Uint8Array) {
  const res = types.txn.decode(bytes) as unknown as { header?: { revision?: Int64 }; succeeded?: boolean; responses?: { response_range?: { kvs?: WireKv[] } }[] };
  const range = res.responses?.find((r) => r.response_range)?.response_range;
  return { revision: num(res.header?.revision), succeeded: !!res.succeeded, rangeKvs: (range?.kvs ?? []).map(kvOf) };
}

function referenceRange(bytes: Uint8Array) {
  const res = types.range.decode(bytes) as unknown as { header?: { revision?: Int64 }; kvs?: WireKv[]; more?: boolean; count?: Int64 };
  return { revision: num(res.header?.revision), kvs: (res.kvs ?? []).map(kvOf), more: !!res.more, count: num(res.count) };
}

function referenceWatch(bytes: Uint8Array) {
  const res = types.watch.decode(bytes) as unknown as {
    header?: { revision?: Int64 }; created?: boolean; canceled?: boolean; compact_revision?: Int64; cancel_reason?: string;
    events?: { type?: number; kv?: WireKv | null }[];
  };
  return {
    revision: num(res.header?.revision),
    created: !!res.created,
    canceled: !!res.canceled,
    compactRevision: num(res.compact_revision),
    cancelReason: res.cancel_reason ?? '',
    events: (res.events ?? []).map((e) => ({ type: e.type ?? 0, kv: kvOf(e.kv) })),
  };
}

const encode = (type: protobuf.Type, o: object) => Buffer.from(type.encode(type.fromObject(o)).finish());
const plain = <T>(v: T) => JSON.parse(JSON.stringify(v, (_k, x) => (x && x.type === 'Buffer' ? Buffer.from(x.data).toString('hex') : x)));

const header = (revision: number | string) => ({ cluster_id: '14841639068965178418', member_id: '10276657743932975437', revision, raft_term: 3 });
const kv = (key: string, value: Buffer | string, create: number | string, mod: number | string, extra = {}) => ({
  key: Buffer.from(key), value: Buffer.from(value), create_revision: create, mod_revision: mod, version: 1, ...extra,
});

describe('etcd answers decoded by hand', () => {
  const revisions = [0, 1, 127, 128, 16_383, 16_384, 2 ** 31 - 1, 2 ** 31, 2 ** 32 + 5, 2 ** 53 - 1];

  it.each(revisions)('a create that succeeded at revision %d', (rev) => {
    const bytes = encode(types.txn, { header: header(rev), succeeded: true, responses: [{ response_put: { header: header(rev) } }] });
    const got = decodeTxnResponse(bytes);
    expect(got).toEqual(referenceTxn(bytes));
    expect(got).toEqual({ revision: rev, succeeded: true, rangeKvs: [] });
  });

  it('a failed compare: the first range among the responses answers with the current value', () => {
    const bytes = encode(types.txn, {
      header: header(900),
      succeeded: false,
      responses: [
        { response_delete_range: { header: header(900), deleted: 0 } },
        { response_range: { header: header(900), kvs: [kv('/registry/configmaps/ns/a', '{"a":1}', 12, 899, { lease: '7587883203311362816' })], count: 1 } },
        { response_range: { header: header(900), kvs: [kv('/registry/other', 'x', 1, 2)], count: 1 } },
      ],
    });
    const got = decodeTxnResponse(bytes);
    expect(plain(got)).toEqual(plain(referenceTxn(bytes)));
    expect(got.rangeKvs).toHaveLength(1);
    expect(got.rangeKvs[0].key.toString()).toBe('/registry/configmaps/ns/a');
    expect(got.rangeKvs[0].mod_revision).toBe(899);
  });

  it('an empty range among the responses still counts as the first', () => {
    const bytes = encode(types.txn, { header: header(5), responses: [{ response_range: { header: header(5) } }, { response_range: { kvs: [kv('k', 'v', 1, 1)] } }] });
    expect(plain(decodeTxnResponse(bytes))).toEqual(plain(referenceTxn(bytes)));
    expect(decodeTxnResponse(bytes).rangeKvs).toEqual([]);
  });

  it('a range of many key-values, large and empty values, more and count', () => {
    const large = Buffer.alloc(300_000, 'x');
    const bytes = encode(types.range, {
      header: header(2 ** 40),
      kvs: [kv('/a', '', 1, 1), kv('/b', large, 2 ** 33, 2 ** 34), kv('', 'v', 3, 4)],
      more: true,
      count: 2 ** 35,
    });
    const got = decodeRangeResponse(bytes);
    expect(plain(got)).toEqual(plain(referenceRange(bytes)));
    expect(got.kvs[1].value.equals(large)).toBe(true);
    expect(got.kvs[1].value.buffer).toBe(bytes.buffer); // a view of the message, as protobufjs gives it
    expect(got).toMatchObject({ revision: 2 ** 40, more: true, count: 2 ** 35 });
  });

  it('a count-only range (no key-values)', () => {
    const bytes = encode(types.range, { header: header(77), count: 12 });
    expect(decodeRangeResponse(bytes)).toEqual({ revision: 77, kvs: [], more: false, count: 12 });
    expect(plain(decodeRangeResponse(bytes))).toEqual(plain(referenceRange(bytes)));
  });

  it('watch events: puts and deletes, prev_kv, several in one answer', () => {
    const bytes = encode(types.watch, {
      header: header(1001),
      watch_id: 0,
      events: [
        { type: 0, kv: kv('/registry/configmaps/ns/a', '{"data":{}}', 1000, 1000) },
        { type: 1, kv: { key: Buffer.from('/registry/configmaps/ns/b'), mod_revision: 1001 }, prev_kv: kv('/registry/configmaps/ns/b', 'old', 3, 4) },
        { type: 0, kv: kv('/registry/configmaps/ns/c', Buffer.alloc(20_000, 'z'), 2 ** 45, 2 ** 45 + 1) },
      ],
    });
    const got = decodeWatchResponse(bytes);
    expect(plain(got)).toEqual(plain(referenceWatch(bytes)));
    expect(got.events.map((e) => e.type)).toEqual([0, 1, 0]);
    expect(got.events[1].kv.value).toEqual(empty);
  });

  it('created, a progress notification (watch_id -1), and cancellations', () => {
    for (const o of [
      { header: header(10), watch_id: 0, created: true },
      { header: header(11), watch_id: -1 },
      { header: header(12), watch_id: 7, canceled: true, compact_revision: 2 ** 36, cancel_reason: 'mvcc: required revision has been compacted' },
      { header: header(13), watch_id: 7, canceled: true, cancel_reason: 'étcd said ✓' },
      { header: header(14), fragment: true, events: [] },
      { header: header(-5), watch_id: 2 },
      {},
    ]) {
      const bytes = encode(types.watch, o);
      expect(plain(decodeWatchResponse(bytes))).toEqual(plain(referenceWatch(bytes)));
    }
    const canceled = decodeWatchResponse(encode(types.watch, { header: header(12), canceled: true, compact_revision: 2 ** 36 }));
    expect(canceled).toMatchObject({ canceled: true, compactRevision: 2 ** 36, revision: 12 });
  });

  it('skips fields it does not know, of every wire type', () => {
    const known = encode(types.watch, { header: header(3), events: [{ type: 0, kv: kv('/k', 'v', 2, 3) }] });
    const unknown = Buffer.from([
      (12 << 3) | 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, // varint, ten bytes
      (13 << 3) | 1, 1, 2, 3, 4, 5, 6, 7, 8, // fixed64
      (14 << 3) | 2, 3, 9, 9, 9, // length-delimited
      0xa8, 0x02, 0x05, // field 37 (a two-byte tag), varint
      (15 << 3) | 5, 1, 2, 3, 4, // fixed32
    ]);
    const bytes = Buffer.concat([unknown.subarray(0, 11), known, unknown.subarray(11)]);
    expect(plain(decodeWatchResponse(bytes))).toEqual(plain(referenceWatch(bytes)));
    expect(decodeWatchResponse(bytes).events[0].kv.mod_revision).toBe(3);
  });

  it('a truncated answer throws, as protobufjs does', () => {
    const bytes = encode(types.watch, { header: header(3), events: [{ type: 0, kv: kv('/k', 'value', 2, 3) }] });
    for (const cut of [1, 5, bytes.length - 1]) {
      const part = bytes.subarray(0, cut);
      expect(() => types.watch.decode(part)).toThrow();
      expect(() => decodeWatchResponse(part)).toThrow(RangeError);
    }
    const txn = encode(types.txn, { header: header(300), succeeded: true });
    expect(() => decodeTxnResponse(txn.subarray(0, txn.length - 1))).toThrow(RangeError);
  });

  it('random answers read as protobufjs reads them', () => {
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
    const revision = () => [rand(200), rand(2 ** 20), rand(2 ** 30) * 2 ** 20 + rand(2 ** 20)][rand(3)];
    const someKv = () => kv(`/registry/x/${'k'.repeat(rand(200))}`, Buffer.alloc(rand(3) === 0 ? rand(40_000) : rand(100), 'q'), revision(), revision());
    for (let i = 0; i < 200; i++) {
      const watch = encode(types.watch, { header: header(revision()), created: rand(2) === 1, events: Array.from({ length: rand(4) }, () => ({ type: rand(2), kv: someKv() })) });
      expect(plain(decodeWatchResponse(watch))).toEqual(plain(referenceWatch(watch)));
      const range = encode(types.range, { header: header(revision()), kvs: Array.from({ length: rand(4) }, someKv), more: rand(2) === 1, count: revision() });
      expect(plain(decodeRangeResponse(range))).toEqual(plain(referenceRange(range)));
    }
  });
});
