/**
 * Namespace lookups follow the cache's change notices: a name looked up once is not read again until a namespace
 * changes, and a change during a read keeps that read from being remembered.
 */
import { Namespaces } from '../../../src/admission/namespaces';
import type { KObject } from '../../../src/machinery/object';
import { errors } from '../../../src/machinery/status';
import type { Registry } from '../../../src/registry/registry';
import { ObjectResult } from '../../../src/registry/results';
import { namespaceDefinition } from '../../../src/resources/namespace';

const clock = { now: () => new Date(0) };

function fakeRegistry(store: Map<string, KObject>) {
  const reads = { count: 0, during: undefined as (() => void) | undefined };
  const registry = {
    async get(_def: unknown, _ns: unknown, name: string) {
      reads.count++;
      reads.during?.();
      const o = store.get(name);
      if (!o) throw errors.notFound(namespaceDefinition, name);
      return ObjectResult.of(structuredClone(o));
    },
  } as unknown as Registry;
  return { registry, reads };
}

const ns = (name: string, labels: Record<string, string> = {}): KObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });

describe('Namespaces told of changes', () => {
  it('reads a name once until a namespace changes', async () => {
    const store = new Map([['a', ns('a', { v: '1' })]]);
    const { registry, reads } = fakeRegistry(store);
    let changed = () => {};
    const namespaces = new Namespaces(() => registry, clock, (_def, c) => ((changed = c), () => undefined));
    expect((await namespaces.cached('a'))?.metadata.labels).toEqual({ v: '1' });
    expect(await namespaces.cached('missing')).toBeUndefined();
    await namespaces.cached('a');
    await namespaces.cached('missing');
    expect(reads.count).toBe(2);
    store.set('a', ns('a', { v: '2' }));
    store.set('missing', ns('missing'));
    changed();
    expect((await namespaces.cached('a'))?.metadata.labels).toEqual({ v: '2' });
    expect(await namespaces.cached('missing')).toBeDefined();
    expect(reads.count).toBe(4);
  });

  it('does not remember a read that a change overtook', async () => {
    const store = new Map([['a', ns('a', { v: '1' })]]);
    const { registry, reads } = fakeRegistry(store);
    let changed = () => {};
    const namespaces = new Namespaces(() => registry, clock, (_def, c) => ((changed = c), () => undefined));
    reads.during = () => changed();
    await namespaces.cached('a');
    reads.during = undefined;
    await namespaces.cached('a');
    expect(reads.count).toBe(2);
  });

  it('answers what it remembers at once, and nothing after a change', async () => {
    const store = new Map([['a', ns('a', { v: '1' })]]);
    const { registry } = fakeRegistry(store);
    let changed = () => {};
    const namespaces = new Namespaces(() => registry, clock, (_def, c) => ((changed = c), () => undefined));
    expect(namespaces.remembered('a')).toBeUndefined();
    await namespaces.cached('a');
    await namespaces.cached('missing');
    expect(namespaces.remembered('a')?.object?.metadata.labels).toEqual({ v: '1' });
    expect(namespaces.remembered('missing')).toEqual({ object: undefined });
    changed();
    expect(namespaces.remembered('a')).toBeUndefined();
  });

  it('remembers nothing without change notices', async () => {
    const { registry } = fakeRegistry(new Map([['a', ns('a')]]));
    const namespaces = new Namespaces(() => registry, clock);
    await namespaces.cached('a');
    expect(namespaces.remembered('a')).toBeUndefined();
  });

  it('reads every time without change notices', async () => {
    const { registry, reads } = fakeRegistry(new Map([['a', ns('a')]]));
    const namespaces = new Namespaces(() => registry, clock);
    await namespaces.cached('a');
    await namespaces.cached('a');
    expect(reads.count).toBe(2);
  });
});
