/**
 * How many bytes allocated under a marker function outlived minor collections (promoted to the old generation, or
 * still live), from V8's sampling heap profiler in this process. A structure that keeps finished work reachable
 * from its garbage (old tables and backing stores a minor collection still reads) shows here, where a full
 * collection, and so a WeakRef, would see nothing wrong.
 */
import { Session } from 'node:inspector';
import { fullCollection } from '../../src/adapters/runtime/heap-trim';

type Gc = (options?: { type: 'minor' | 'major' }) => void;

interface ProfileNode {
  callFrame: { functionName: string };
  selfSize: number;
  children: ProfileNode[];
}

/** V8's gc(), as the server's heap trimmer gets it (fullCollection); it also takes { type: 'minor' }. */
export function gc(): Gc {
  return fullCollection() as Gc;
}

function post<T>(session: Session, method: string, params?: object): Promise<T> {
  return new Promise((resolve, reject) => session.post(method, params, (err, result) => (err ? reject(err) : resolve(result as T))));
}

/** Bytes allocated by `marker` (a function's name) or below it during `run` that no minor collection freed. */
export async function promotedBytes(marker: string, run: (minorGc: () => void) => void | Promise<void>): Promise<number> {
  const collect = gc();
  collect(); // everything there is to collect, as gc() with no options does
  const session = new Session();
  session.connect();
  try {
    await post(session, 'HeapProfiler.startSampling', { samplingInterval: 64, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: false });
    await run(() => collect({ type: 'minor' }));
    // Garbage since the last collection would count as live: one more minor collection frees it.
    collect({ type: 'minor' });
    const { profile } = await post<{ profile: { head: ProfileNode } }>(session, 'HeapProfiler.stopSampling');
    let bytes = 0;
    const walk = (node: ProfileNode, under: boolean) => {
      const inside = under || node.callFrame.functionName === marker;
      if (inside) bytes += node.selfSize;
      for (const child of node.children) walk(child, inside);
    };
    walk(profile.head, false);
    return bytes;
  } finally {
    session.disconnect();
  }
}
