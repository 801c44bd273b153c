/**
 * A progress answer that etcd sends before it reports the watch created (its answers with watch_id -1 pass the
 * events it still holds for such a watch) says nothing about this watch: taken as progress, it moved the watch past
 * the event that followed, which was then dropped as old.
 */
import { KeySpace } from '../../../src/adapters/etcd/etcd-keys';
import { watchMessages } from '../../../src/adapters/etcd/etcd-kv';
import { EtcdWatch } from '../../../src/adapters/etcd/etcd-watch';
import type { GrpcClient, GrpcStreamHandlers } from '../../../src/adapters/etcd/grpc-client';

function fakeStream() {
  let handlers: GrpcStreamHandlers | undefined;
  const writes: Record<string, unknown>[] = [];
  const grpc = {
    openStream: (_method: string, h: GrpcStreamHandlers) => {
      handlers = h;
      return { write: (m: Uint8Array) => writes.push(watchMessages().request.decode(m).toJSON()), cancel: () => undefined };
    },
  } as unknown as GrpcClient;
  const answer = (o: object) => handlers!.onMessage(Buffer.from(watchMessages().response.encode(o).finish()));
  return { grpc, writes, answer };
}

const event = (rev: number) => ({ type: 0, kv: { key: Buffer.from('/registry/cm/a'), value: Buffer.from('{}'), create_revision: rev, mod_revision: rev, version: 1 } });

test('progress is neither asked for nor taken before etcd reports the watch created', () => {
  const { grpc, writes, answer } = fakeStream();
  const events: number[] = [];
  const progress: number[] = [];
  const watch = new EtcdWatch(grpc, new KeySpace('/registry'), '/cm/', 10,
    { onEvents: (e) => events.push(...e.map((x) => x.modRevision)), onProgress: (r) => progress.push(r), onError: () => undefined },
    () => undefined, () => true);
  watch.requestProgress();
  expect(writes.map((w) => Object.keys(w)[0])).toEqual(['create_request']); // no progress request yet

  // The order etcd may send them in: a -1 progress answer (from another ask), then created, then the held event.
  answer({ header: { revision: 11 }, watch_id: -1 });
  answer({ header: { revision: 10 }, watch_id: 0, created: true });
  answer({ header: { revision: 11 }, watch_id: 0, events: [event(11)] });
  expect(progress).toEqual([10]); // from created: the store was where the watch starts
  expect(events).toEqual([11]);

  watch.requestProgress();
  expect(writes.map((w) => Object.keys(w)[0])).toEqual(['create_request', 'progress_request']);
  answer({ header: { revision: 12 }, watch_id: -1 });
  expect(progress).toEqual([10, 12]);
  watch.cancel();
});
