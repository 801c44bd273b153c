/**
 * The policy source rebuilds its hooks only when a policy or binding changed: the cache's
 * resourceVersion moves with every write of any kind, so it cannot be what decides.
 */
import { PolicySource } from '../../../../src/admission/policy/source';
import { configMapDefinition } from '../../../../src/resources/config-map';
import { configMapRules } from '../../../support/policy-objects';
import { configMap, harness } from './harness';

describe('PolicySource', () => {
  it('keeps its hooks across unrelated writes and rebuilds them when a policy or binding changes', async () => {
    const h = harness();
    const source = new PolicySource();
    h.addPolicy('p', { matchConstraints: configMapRules(), validations: [{ expression: 'true' }] });
    h.addBinding('b', { policyName: 'p', validationActions: ['Deny'] });
    const first = await source.hooks(h.registry);
    expect(first.map((x) => x.name)).toEqual(['p']);
    h.put(configMapDefinition, configMap('unrelated'));
    expect(await source.hooks(h.registry)).toBe(first);

    h.addPolicy('p', { matchConstraints: configMapRules(), validations: [{ expression: 'false' }] });
    const changed = await source.hooks(h.registry);
    expect(changed).not.toBe(first);
    expect(changed[0].compiled.validations[0].validation.expression).toBe('false');

    h.addBinding('b', { policyName: 'p', validationActions: ['Warn'] });
    const rebound = await source.hooks(h.registry);
    expect(rebound[0].bindings[0].binding.spec?.validationActions).toEqual(['Warn']);
    h.put(configMapDefinition, configMap('another'));
    expect(await source.hooks(h.registry)).toBe(rebound);
  });
});

describe('PolicySource told of changes', () => {
  it('reads no list while nothing changed, and reads again after a change of a policy or binding kind', async () => {
    const h = harness();
    const listeners = new Map<unknown, () => void>();
    const source = new PolicySource((def, changed) => {
      listeners.set(def, changed);
      return () => listeners.delete(def);
    });
    h.addPolicy('p', { matchConstraints: configMapRules(), validations: [{ expression: 'true' }] });
    h.addBinding('b', { policyName: 'p', validationActions: ['Deny'] });
    const first = await source.hooks(h.registry);
    const lists = h.registry.lists;
    expect(await source.hooks(h.registry)).toBe(first);
    expect(h.registry.lists).toBe(lists);
    h.addPolicy('p', { matchConstraints: configMapRules(), validations: [{ expression: 'false' }] });
    expect(listeners.size).toBe(2);
    for (const changed of listeners.values()) changed();
    const changed = await source.hooks(h.registry);
    expect(changed[0].compiled.validations[0].validation.expression).toBe('false');
    expect(h.registry.lists).toBeGreaterThan(lists);
  });
});
