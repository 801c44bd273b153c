/**
 * The etcd3 library's client, for what stays on it (leases and compaction): the same endpoints and TLS as the
 * server's own transport, keepalives, and no circuit breaker where there is nowhere to fail over to.
 */
import { Etcd3, type IOptions } from 'etcd3';
import type { EtcdTls } from './etcd-tls';

export function libraryClient(endpoints: string[], tls: EtcdTls | undefined): Etcd3 {
  return new Etcd3({
    hosts: endpoints,
    credentials: tls ? { rootCertificate: tls.ca, certChain: tls.cert, privateKey: tls.key } : undefined,
    // Keepalives notice a dead peer before a lease grant or compaction waits out its deadline (etcd's minimum: 5 s).
    grpcOptions: {
      'grpc.keepalive_time_ms': 30_000,
      'grpc.keepalive_timeout_ms': 10_000,
      // A page of large objects easily exceeds grpc-js's 4 MiB default (kube-apiserver lifts it too).
      'grpc.max_receive_message_length': -1,
      // Channelz keeps per-call statistics nobody reads here; off, each etcd call costs about a sixth less CPU.
      'grpc.enable_channelz': 0,
    },
    // With one endpoint there is nowhere to fail over to: the library's per-host circuit
    // breaker would only keep every call (and watch) failing for 5 s after etcd is back.
    faultHandling: endpoints.length === 1 ? { host: () => passThroughPolicy } : undefined,
  });
}

type HostPolicy = ReturnType<NonNullable<NonNullable<IOptions['faultHandling']>['host']>>;

/** Never aborted, and shared: the library passes it along without listening to it. */
const neverAborted = new AbortController().signal;

/** A cockatiel-shaped policy that just runs the call (the library only calls execute()). */
const passThroughPolicy = {
  execute: async <T>(fn: (context: { signal: AbortSignal }) => PromiseLike<T> | T): Promise<T> => fn({ signal: neverAborted }),
} as unknown as HostPolicy;

/** The promise's outcome, or onTimeout's after ms (the promise's later outcome is ignored). */
export function raceTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((resolve, reject) => {
    timer = setTimeout(() => {
      try {
        resolve(onTimeout());
      } catch (e) {
        reject(e);
      }
    }, ms);
  });
  promise.catch(() => undefined); // a rejection after the timeout is nobody's business
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
