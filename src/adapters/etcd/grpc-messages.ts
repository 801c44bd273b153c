/**
 * What a gRPC call over etcd's HTTP/2 carries besides the protobuf: the errors a call ends with (worded as grpc-js
 * words them), the grpc-status of its trailers, and the length-prefixed framing of its messages.
 */
import { LengthPrefixedReader } from './http2/length-prefixed';
import type { StreamFailure } from './http2/session';

/** A call that etcd answered with a non-zero grpc-status; message as grpc-js writes it ("14 UNAVAILABLE: ..."). */
export class GrpcStatusError extends Error {
  constructor(readonly code: number, readonly details: string) {
    super(`${code} ${statusNames[code] ?? 'UNKNOWN'}: ${details}`);
    this.name = 'GrpcStatusError';
  }
}

/** No connection to any endpoint, or the connection broke while the call was out. */
export class GrpcConnectionError extends Error {
  constructor(message: string, readonly sent: boolean) {
    super(message);
    this.name = 'GrpcConnectionError';
  }
}

/** The call's deadline passed first. */
export class GrpcTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`4 DEADLINE_EXCEEDED: no answer within ${timeoutMs} ms`);
    this.name = 'GrpcTimeoutError';
  }
}

const statusNames: Record<number, string> = {
  1: 'CANCELLED', 2: 'UNKNOWN', 3: 'INVALID_ARGUMENT', 4: 'DEADLINE_EXCEEDED', 5: 'NOT_FOUND', 6: 'ALREADY_EXISTS',
  7: 'PERMISSION_DENIED', 8: 'RESOURCE_EXHAUSTED', 9: 'FAILED_PRECONDITION', 10: 'ABORTED', 11: 'OUT_OF_RANGE',
  12: 'UNIMPLEMENTED', 13: 'INTERNAL', 14: 'UNAVAILABLE', 15: 'DATA_LOSS', 16: 'UNAUTHENTICATED',
};

/** A stream that ended without a grpc-status: the connection's fault, and whether etcd may have acted on it. */
export function connectionError(failure: StreamFailure | undefined, details: string, fallback: string): GrpcConnectionError {
  return new GrpcConnectionError(details || failure?.message || fallback, !(failure?.unprocessed ?? false));
}

/**
 * The grpc-status and grpc-message of a call or stream, read from its trailers or, in a trailers-only answer (every
 * error), its headers; an HTTP status other than 200 is the details until a grpc-status says more.
 */
export class Answer {
  status: string | undefined;
  details = '';

  read(fields: Map<string, string>): void {
    const http = fields.get(':status');
    if (http !== undefined && http !== '200') this.details = `HTTP status ${http}`;
    const status = fields.get('grpc-status');
    if (status === undefined) return;
    this.status = status;
    this.details = decodeMessage(fields.get('grpc-message'));
  }
}

/** From this size on a message is sent behind its prefix, not copied after it (see framed). */
const copiedUpTo = 64 * 1024;

/**
 * A message in gRPC's length-prefixed framing (uncompressed), as the pieces to send: a small one copied behind its
 * 5-byte prefix, a large one (a 900 KB value's put) as the prefix and then the message itself, since copying it
 * would cost more than the DATA frame of its own that the prefix then takes. A message may come in parts (a put
 * whose value was not copied into it, txn-encoding.ts): they follow the prefix in order.
 */
export function framed(message: Uint8Array | readonly Uint8Array[]): Buffer[] {
  const parts = message instanceof Uint8Array ? [message] : message;
  let length = 0;
  for (const p of parts) length += p.length;
  const out = Buffer.allocUnsafe(length < copiedUpTo ? 5 + length : 5);
  out[0] = 0;
  out.writeUInt32BE(length, 1);
  if (length < copiedUpTo) {
    let at = 5;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return [out];
  }
  return [out, ...parts.filter((p) => p.length > 0).map((p) => Buffer.from(p.buffer, p.byteOffset, p.length))];
}

/**
 * Splits a stream's data into gRPC messages (a compression flag and a 4-byte length before each), each in a buffer of
 * its own: the data it is given is a view of the connection's read buffer, valid only during the call.
 */
export class FrameReader {
  private readonly records = new LengthPrefixedReader(5, (bytes, at) => (bytes[at] !== 0 ? 'compressed or malformed frame' : bytes.readUInt32BE(at + 1)), true);

  /** Calls emit for each whole message; returns a complaint for a frame it cannot read. */
  push(chunk: Buffer, emit: (message: Buffer) => void): string | undefined {
    return this.records.push(chunk, (_header, _at, message) => emit(message));
  }
}

/** grpc-message is percent-encoded. */
function decodeMessage(text: string | undefined): string {
  if (text === undefined) return '';
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
