/**
 * The admission chain runs its plugins in order and answers as they do: synchronously while each answers at once,
 * with a promise once one has to wait (the rest then wait for it), and with its first refusal either way.
 */
import { AdmissionChain, type AdmissionAttributes, type AdmissionPlugin } from '../../../src/registry/admission-chain';
import { configMapDefinition } from '../../../src/resources/config-map';

const attributes: AdmissionAttributes = {
  operation: 'CREATE',
  definition: configMapDefinition,
  namespace: 'default',
  name: 'cm',
  object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'default' } },
  user: { username: 'u', groups: [] },
  dryRun: false,
  options: { user: { username: 'u', groups: [] }, warnings: [], dryRun: false },
} as unknown as AdmissionAttributes;

function recorder() {
  const calls: string[] = [];
  const at = (name: string, run?: () => void | Promise<void>): AdmissionPlugin => ({
    name,
    admit: () => {
      calls.push(`admit ${name}`);
      return run?.();
    },
    validate: () => {
      calls.push(`validate ${name}`);
      return run?.();
    },
  });
  return { calls, at };
}

test('plugins that answer at once make the whole chain answer at once, in order', () => {
  const { calls, at } = recorder();
  const chain = new AdmissionChain([at('a'), { name: 'admit-less' }, at('b')]);
  expect(chain.admit(attributes)).toBeUndefined();
  expect(chain.validate(attributes)).toBeUndefined();
  expect(calls).toEqual(['admit a', 'admit b', 'validate a', 'validate b']);
});

test('a plugin that waits holds back the ones after it until it is done', async () => {
  const { calls, at } = recorder();
  let release!: () => void;
  const chain = new AdmissionChain([at('a'), at('slow', () => new Promise<void>((r) => (release = r))), at('c')]);
  const admitted = chain.admit(attributes);
  expect(admitted).toBeInstanceOf(Promise);
  await Promise.resolve();
  expect(calls).toEqual(['admit a', 'admit slow']);
  release();
  await admitted;
  expect(calls).toEqual(['admit a', 'admit slow', 'admit c']);
});

test('a refusal at once is thrown at once, and the plugins after it are not asked', () => {
  const { calls, at } = recorder();
  const chain = new AdmissionChain([
    at('no', () => {
      throw new Error('refused');
    }),
    at('after'),
  ]);
  expect(() => chain.admit(attributes)).toThrow('refused');
  expect(calls).toEqual(['admit no']);
});

test('a refusal after waiting rejects, and the plugins after it are not asked', async () => {
  const { calls, at } = recorder();
  const chain = new AdmissionChain([at('late', () => Promise.reject(new Error('refused late'))), at('after')]);
  await expect(chain.validate(attributes)).rejects.toThrow('refused late');
  expect(calls).toEqual(['validate late']);
});
