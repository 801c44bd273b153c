/**
 * etcd's KV service (Range and Txn) over GrpcClient. The requests that every
 * write and read sends, and every answer, are encoded and decoded by hand
 * (txn-encoding.ts, response-decoding.ts); the rest use protobufjs on the
 * etcd3 package's own .proto files, as do the Watch service's requests.
 */
import { createRequire } from 'node:module';
import * as protobuf from 'protobufjs';
import type { GrpcClient } from './grpc-client';
import { encodeTxn, type TxnRequest } from './txn-encoding';
import { decodeRangeResponse, decodeTxnResponse, type RangeResponse, type TxnResponse } from './response-decoding';

export type { Compare, RequestOp, TxnRequest } from './txn-encoding';
export type { EtcdKeyValue, RangeResponse, TxnResponse } from './response-decoding';

export interface RangeRequest {
  key: Buffer;
  range_end?: Buffer;
  limit?: number;
  revision?: number;
  count_only?: boolean;
}

let root: protobuf.Root | undefined;

/** The etcd3 package's rpc.proto (and the kv.proto it imports), loaded once. */
function protoRoot(): protobuf.Root {
  if (!root) root = new protobuf.Root().loadSync(createRequire(__filename).resolve('etcd3/proto/rpc.proto'), { keepCase: true });
  return root;
}

let rangeType: protobuf.Type | undefined;

function rangeRequest(): protobuf.Type {
  return (rangeType ??= protoRoot().lookupType('etcdserverpb.RangeRequest'));
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
    rangeRequest(); // load the .proto files at start, not on the first request
    watchMessages();
  }

  async range(req: RangeRequest, timeoutMs = this.timeoutMs): Promise<RangeResponse> {
    return decodeRangeResponse(await this.grpc.call('/etcdserverpb.KV/Range', rangeRequest().encode(req).finish(), timeoutMs));
  }

  async txn(req: TxnRequest): Promise<TxnResponse> {
    return decodeTxnResponse(await this.grpc.call('/etcdserverpb.KV/Txn', encodeTxn(req), this.timeoutMs));
  }
}
