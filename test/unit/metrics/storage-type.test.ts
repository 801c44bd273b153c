import { typeOf } from '../../../src/adapters/metrics/instrumented-storage';

describe('etcd_request_duration_seconds type label', () => {
  it.each([
    ['/configmaps/ns/a', 'configmaps'],
    ['/configmaps/', 'configmaps'],
    ['/configmaps', 'configmaps'],
    ['/svc.io/leases/ns/a', 'leases.svc.io'],
    ['/svc.io/leases', 'leases.svc.io'],
    ['/svc.io/', 'svc.io'],
    ['/svc.io', 'svc.io'],
    ['', ''],
    ['/', ''],
    ['//svc.io//leases/x', 'leases.svc.io'],
    ['configmaps/ns', 'configmaps'],
  ])('%s → %s', (key, type) => {
    expect(typeOf(key)).toBe(type);
  });
});
