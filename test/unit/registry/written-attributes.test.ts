/**
 * What the cache reads of this process's own writes is taken before the write and handed over only for the same
 * kind and the same bytes; the writer changing its object afterwards changes nothing the cache gets.
 */
import { rememberWrite, takeWritten } from '../../../src/registry/encoded-objects';
import { configMapDefinition } from '../../../src/resources/config-map';
import { namespaceDefinition } from '../../../src/resources/namespace';
import type { KObject } from '../../../src/machinery/object';

const cm = (labels: Record<string, string>): KObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'n', uid: 'u-1', labels } });
const bytesOf = (o: KObject) => Buffer.from(JSON.stringify(o));

describe('written attributes', () => {
  test('equal bytes of the same kind get what the object had when it was written, once', () => {
    const obj = cm({ app: 'one' });
    const bytes = bytesOf(obj);
    // Where the revision goes (before the `}` that closes metadata, after a comma), found once for the write's answer too.
    const slot = { at: bytes.length - 2, comma: true };
    expect(rememberWrite(configMapDefinition, '/registry/configmaps/n/a', bytes, obj)).toEqual(slot);
    obj.metadata.labels!.app = 'changed after the write';
    const got = takeWritten(configMapDefinition, '/registry/configmaps/n/a', Buffer.from(bytes)); // etcd hands back a copy
    expect(got).toEqual({ labels: { app: 'one' }, uid: 'u-1', fields: undefined, deleting: false, slot });
    expect(takeWritten(configMapDefinition, '/registry/configmaps/n/a', bytes)).toBeUndefined();
  });

  test('other bytes, another key or another kind get nothing, and leave a later write its entry', () => {
    const first = cm({ v: '1' });
    const second = cm({ v: '2' });
    rememberWrite(configMapDefinition, '/registry/configmaps/n/a', bytesOf(first), first);
    rememberWrite(configMapDefinition, '/registry/configmaps/n/a', bytesOf(second), second);
    expect(takeWritten(configMapDefinition, '/registry/configmaps/n/a', bytesOf(first))).toBeUndefined();
    expect(takeWritten(namespaceDefinition, '/registry/configmaps/n/a', bytesOf(second))).toBeUndefined();
    expect(takeWritten(configMapDefinition, '/registry/configmaps/n/b', bytesOf(second))).toBeUndefined();
    expect(takeWritten(configMapDefinition, '/registry/configmaps/n/a', bytesOf(second))?.labels).toEqual({ v: '2' });
  });

  test('the kind’s selectable fields are read at write time', () => {
    const ns: KObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'x' }, status: { phase: 'Active' } } as KObject;
    const bytes = bytesOf(ns);
    rememberWrite(namespaceDefinition, '/registry/namespaces/x', bytes, ns);
    (ns as unknown as { status: { phase: string } }).status.phase = 'Terminating';
    expect(takeWritten(namespaceDefinition, '/registry/namespaces/x', bytes)?.fields).toMatchObject({ 'status.phase': 'Active' });
  });

  test('an object being deleted is taken as such', () => {
    const obj = { ...cm({}), metadata: { ...cm({}).metadata, deletionTimestamp: '2026-11-27T00:00:00Z', finalizers: ['x/y'] } };
    const bytes = bytesOf(obj);
    rememberWrite(configMapDefinition, '/registry/configmaps/n/a', bytes, obj);
    expect(takeWritten(configMapDefinition, '/registry/configmaps/n/a', bytes)?.deleting).toBe(true);
  });

  test('writes whose values never come back are forgotten within the bound', () => {
    const big = Buffer.alloc(1024 * 1024, 0x20);
    const obj = cm({});
    for (let i = 0; i < 40; i++) rememberWrite(configMapDefinition, `/registry/configmaps/n/big-${i}`, big, obj);
    expect(takeWritten(configMapDefinition, '/registry/configmaps/n/big-0', big)).toBeUndefined();
    expect(takeWritten(configMapDefinition, '/registry/configmaps/n/big-39', big)).toBeDefined();
  });
});
