/**
 * etcd's KV service (Range and Txn) over GrpcClient, with the protobuf
 * messages of the etcd3 package's own .proto files (protobufjs compiles an
 * encoder and decoder per message type once); the Watch service's messages
 * come from the same files.
 */
import { createRequire } from 'node:module';
import * as protobuf from 'protobufjs';
import type { GrpcClient } from './grpc-client';
import { encodeTxn, type TxnRequest } from './txn-encoding';

export type { Compare, RequestOp, TxnRequest } from './txn-encoding';

export interface EtcdKeyValue {
  key: Buffer;
  value: Buffer;
  create_revision: number;
  mod_revision: number;
}

export interface RangeRequest {
  key: Buffer;
  range_end?: Buffer;
  limit?: number;
  revision?: number;
  count_only?: boolean;
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

let root: protobuf.Root | undefined;

/** The etcd3 package's rpc.proto (and the kv.proto it imports), loaded once. */
function protoRoot(): protobuf.Root {
  if (!root) root = new protobuf.Root().loadSync(createRequire(__filename).resolve('etcd3/proto/rpc.proto'), { keepCase: true });
  return root;
}

let types: { range: protobuf.Type; rangeResponse: protobuf.Type; txn: protobuf.Type; txnResponse: protobuf.Type } | undefined;

function messages() {
  if (!types) {
    const r = protoRoot();
    types = {
      range: r.lookupType('etcdserverpb.RangeRequest'),
      rangeResponse: r.lookupType('etcdserverpb.RangeResponse'),
      txn: r.lookupType('etcdserverpb.TxnRequest'),
      txnResponse: r.lookupType('etcdserverpb.TxnResponse'),
    };
  }
  return types;
}

let watchTypes: { request: protobuf.Type; response: protobuf.Type } | undefined;

/** WatchRequest and WatchResponse, for the Watch service's stream. */
export function watchMessages() {
  if (!watchTypes) {
    const r = protoRoot();
    watchTypes = { request: r.lookupType('etcdserverpb.WatchRequest'), response: r.lookupType('etcdserverpb.WatchResponse') };
  }
  return watchTypes;
}

let statusTypes: { request: protobuf.Type; response: protobuf.Type } | undefined;

/** The version of the member at the other end of `grpc` (its Maintenance Status), e.g. "3.5.17". */
export async function memberVersion(grpc: GrpcClient, timeoutMs: number): Promise<string> {
  const r = protoRoot();
  statusTypes ??= { request: r.lookupType('etcdserverpb.StatusRequest'), response: r.lookupType('etcdserverpb.StatusResponse') };
  const body = await grpc.call('/etcdserverpb.Maintenance/Status', statusTypes.request.encode({}).finish(), timeoutMs);
  return String((statusTypes.response.decode(body) as unknown as { version?: string }).version ?? '');
}

export class EtcdKv {
  constructor(
    private readonly grpc: GrpcClient,
    private readonly timeoutMs: number,
  ) {
    messages(); // load the .proto files at start, not on the first request
    watchMessages();
  }

  async range(req: RangeRequest, timeoutMs = this.timeoutMs): Promise<RangeResponse> {
    const t = messages();
    const body = await this.grpc.call('/etcdserverpb.KV/Range', t.range.encode(req).finish(), timeoutMs);
    const res = t.rangeResponse.decode(body) as unknown as WireRangeResponse;
    return { revision: num(res.header?.revision), kvs: (res.kvs ?? []).map(keyValue), more: !!res.more, count: num(res.count) };
  }

  async txn(req: TxnRequest): Promise<TxnResponse> {
    const t = messages();
    const body = await this.grpc.call('/etcdserverpb.KV/Txn', encodeTxn(req), this.timeoutMs);
    const res = t.txnResponse.decode(body) as unknown as WireTxnResponse;
    const range = res.responses?.find((r) => r.response_range)?.response_range;
    return { revision: num(res.header?.revision), succeeded: !!res.succeeded, rangeKvs: (range?.kvs ?? []).map(keyValue) };
  }
}

export type Int64 = number | { toNumber(): number } | null | undefined;

export interface WireKeyValue {
  key?: Buffer;
  value?: Buffer;
  create_revision?: Int64;
  mod_revision?: Int64;
}

interface WireRangeResponse {
  header?: { revision?: Int64 };
  kvs?: WireKeyValue[];
  more?: boolean;
  count?: Int64;
}

interface WireTxnResponse {
  header?: { revision?: Int64 };
  succeeded?: boolean;
  responses?: { response_range?: { kvs?: WireKeyValue[] } }[];
}

/** int64 fields decode as Long objects when the long package is present, as numbers otherwise. */
export function num(v: Int64): number {
  if (v === null || v === undefined) return 0;
  return typeof v === 'number' ? v : v.toNumber();
}

const empty = Buffer.alloc(0);

/** A decoded KeyValue with its defaults filled in and its revisions as numbers. */
export function keyValue(kv: WireKeyValue): EtcdKeyValue {
  return { key: kv.key ?? empty, value: kv.value ?? empty, create_revision: num(kv.create_revision), mod_revision: num(kv.mod_revision) };
}
