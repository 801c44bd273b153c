/**
 * etcd's KV service (Range and Txn) over GrpcUnaryClient, with the protobuf
 * messages of the etcd3 package's own .proto files (protobufjs compiles an
 * encoder and decoder per message type once).
 */
import { createRequire } from 'node:module';
import * as protobuf from 'protobufjs';
import type { GrpcUnaryClient } from './grpc-unary';

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

export interface TxnResponse {
  revision: number;
  succeeded: boolean;
  /** The key-values of the first range in the responses (a failed compare's current value). */
  rangeKvs: EtcdKeyValue[];
}

const compareTarget = { Create: 1, Mod: 2 } as const;
const compareResult = { Equal: 0, Greater: 1 } as const;

let types: { range: protobuf.Type; rangeResponse: protobuf.Type; txn: protobuf.Type; txnResponse: protobuf.Type } | undefined;

function messages() {
  if (!types) {
    const rpcProto = createRequire(__filename).resolve('etcd3/proto/rpc.proto');
    const root = new protobuf.Root().loadSync(rpcProto, { keepCase: true });
    types = {
      range: root.lookupType('etcdserverpb.RangeRequest'),
      rangeResponse: root.lookupType('etcdserverpb.RangeResponse'),
      txn: root.lookupType('etcdserverpb.TxnRequest'),
      txnResponse: root.lookupType('etcdserverpb.TxnResponse'),
    };
  }
  return types;
}

export class EtcdKv {
  constructor(
    private readonly grpc: GrpcUnaryClient,
    private readonly timeoutMs: number,
  ) {
    messages(); // load the .proto files at start, not on the first request
  }

  async range(req: RangeRequest, timeoutMs = this.timeoutMs): Promise<RangeResponse> {
    const t = messages();
    const body = await this.grpc.call('/etcdserverpb.KV/Range', t.range.encode(req).finish(), timeoutMs);
    const res = t.rangeResponse.decode(body) as unknown as WireRangeResponse;
    return { revision: num(res.header?.revision), kvs: (res.kvs ?? []).map(keyValue), more: !!res.more, count: num(res.count) };
  }

  async txn(req: TxnRequest): Promise<TxnResponse> {
    const t = messages();
    const wire = {
      compare: req.compare.map((c) => ({ ...c, target: compareTarget[c.target], result: compareResult[c.result] })),
      success: req.success,
      failure: req.failure,
    };
    const body = await this.grpc.call('/etcdserverpb.KV/Txn', t.txn.encode(wire).finish(), this.timeoutMs);
    const res = t.txnResponse.decode(body) as unknown as WireTxnResponse;
    const range = res.responses?.find((r) => r.response_range)?.response_range;
    return { revision: num(res.header?.revision), succeeded: !!res.succeeded, rangeKvs: (range?.kvs ?? []).map(keyValue) };
  }
}

type Int64 = number | { toNumber(): number } | null | undefined;

interface WireKeyValue {
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
function num(v: Int64): number {
  if (v === null || v === undefined) return 0;
  return typeof v === 'number' ? v : v.toNumber();
}

const empty = Buffer.alloc(0);

function keyValue(kv: WireKeyValue): EtcdKeyValue {
  return { key: kv.key ?? empty, value: kv.value ?? empty, create_revision: num(kv.create_revision), mod_revision: num(kv.mod_revision) };
}
