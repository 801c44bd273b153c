import { clusterTrustBundleDefinition as def } from '../../../src/resources/cluster-trust-bundle';
import { isDNS1123Subdomain } from '../../../src/machinery/validation/names';
import type { KObject } from '../../../src/machinery/object';
import { strategyContext } from '../../support/strategy-context';
import { makeCaCertPem, makeLeafCertPem } from '../../support/crypto-fixtures';
import { cause, causes, runCreate, runUpdate, toPem } from './certificates-helpers';

const ctx = strategyContext();
const DAY = 24 * 3600 * 1000;
const PATH = 'spec.trustBundle';

const ca = async () => `${(await makeCaCertPem()).pem}\n`;
const leaf = async () => `${(await makeLeafCertPem({ notBefore: new Date(Date.now() - DAY), notAfter: new Date(Date.now() + DAY) })).pem}\n`;

function ctb(name: string, spec: Record<string, unknown>, meta: Record<string, unknown> = {}) {
  return { apiVersion: 'certificates.svc.io/v1', kind: 'ClusterTrustBundle', metadata: { name, ...meta }, spec };
}

const createErrs = async (obj: Record<string, unknown>) => causes((await runCreate(def, obj, ctx)).errs);
const bundleErrs = async (trustBundle: string) => createErrs(ctb('bundle', { trustBundle }));
const omitted = (message: string) => cause(PATH, 'FieldValueInvalid', `Invalid value: "<value omitted>": ${message}`);

describe('ClusterTrustBundle definition', () => {
  it('is cluster-scoped certificates.svc.io/v1 with no status, selectable by signer', () => {
    expect(def).toMatchObject({
      group: 'certificates.svc.io', version: 'v1', kind: 'ClusterTrustBundle', plural: 'clustertrustbundles',
      namespaced: false, shortNames: [], categories: [], allowCreateOnUpdate: false, allowUnconditionalUpdate: false,
      subresources: {},
    });
    expect(def.fieldSelectors['spec.signerName']({ metadata: {}, spec: { signerName: 'a.io/b' } })).toBe('a.io/b');
  });

  it('prints Name and SignerName only', () => {
    expect(def.table!.columns.map((c) => c.name)).toEqual(['Name', 'SignerName']);
    expect(def.table!.cells({ metadata: { name: 'x' }, spec: {} }, new Date())).toEqual(['x', '<none>']);
    expect(def.table!.cells({ metadata: { name: 'a.io:b:x' }, spec: { signerName: 'a.io/b' } }, new Date())).toEqual(['a.io:b:x', 'a.io/b']);
  });
});

describe('trustBundle', () => {
  it('accepts distinct CA certificates with text between blocks', async () => {
    expect(await bundleErrs(`# roots\n${await ca()}comment\n${await ca()}`)).toEqual([]);
  });

  it('requires at least one certificate', async () => {
    expect(await bundleErrs('')).toEqual([omitted('at least one trust anchor must be provided')]);
    expect(await createErrs(ctb('bundle', {}))).toEqual([omitted('at least one trust anchor must be provided')]);
  });

  it('requires the CA bit', async () => {
    expect(await bundleErrs(`${await ca()}${await leaf()}`)).toEqual([omitted('entry 1 does not have the CA bit set')]);
  });

  it('allows only header-free CERTIFICATE blocks that parse', async () => {
    const { der } = await makeCaCertPem();
    expect(await bundleErrs(toPem('PUBLIC KEY', new Uint8Array([1])))).toEqual([omitted('entry 0 has bad block type: PUBLIC KEY')]);
    expect(await bundleErrs(toPem('CERTIFICATE', der, { Comment: 'x' }))).toEqual([omitted('entry 0 has PEM block headers')]);
    expect(await bundleErrs(toPem('CERTIFICATE', new Uint8Array([0x30, 0])))).toEqual([omitted('entry 0 does not parse as X.509')]);
  });

  it('rejects duplicates, reporting their indices', async () => {
    const [a, b] = [await ca(), await ca()];
    expect(await bundleErrs(`${a}${b}${a}`)).toEqual([omitted('duplicate trust anchor (indices [0 2])')]);
  });

  it('reports malformed entries without follow-on duplicate errors', async () => {
    const a = await ca();
    expect(await bundleErrs(`${a}${a}${await leaf()}`)).toEqual([omitted('entry 2 does not have the CA bit set')]);
  });

  it('is limited to 1 MiB', async () => {
    expect(await bundleErrs(' '.repeat(1024 * 1024 + 1))).toEqual([cause(PATH, 'FieldValueTooLong', 'Too long: may not be more than 1048576 bytes')]);
  });
});

describe('names and signerName', () => {
  it('prefixes names of signer bundles with the signer name', async () => {
    const trustBundle = await ca();
    expect(await createErrs(ctb('example.com:foo:roots', { signerName: 'example.com/foo', trustBundle }))).toEqual([]);
    expect(await createErrs(ctb('roots', { signerName: 'example.com/foo', trustBundle }))).toEqual([
      cause('metadata.name', 'FieldValueInvalid', 'Invalid value: "roots": ClusterTrustBundle for signerName example.com/foo must be named with prefix example.com:foo:'),
    ]);
    expect(await createErrs(ctb('example.com:foo:Roots', { signerName: 'example.com/foo', trustBundle }))).toEqual([
      cause('metadata.name', 'FieldValueInvalid', `Invalid value: "example.com:foo:Roots": ${isDNS1123Subdomain('Roots')[0]}`),
    ]);
  });

  it('forbids ":" in names of bundles without a signer', async () => {
    expect(await createErrs(ctb('a:b', { trustBundle: await ca() }))).toEqual([
      cause('metadata.name', 'FieldValueInvalid', 'Invalid value: "a:b": ClusterTrustBundle without signer name must not have ":" in its name'),
    ]);
  });

  it('checks generateName with the same rule', async () => {
    const obj = ctb('example.com:foo:x', { signerName: 'example.com/foo', trustBundle: await ca() }, { generateName: 'roots-' });
    expect(await createErrs(obj)).toEqual([
      cause('metadata.generateName', 'FieldValueInvalid', 'Invalid value: "roots-": ClusterTrustBundle for signerName example.com/foo must be named with prefix example.com:foo:'),
    ]);
  });

  it('validates signerName when set', async () => {
    expect(await createErrs(ctb('x', { signerName: 'nodomain', trustBundle: await ca() }))).toEqual([
      cause('metadata.name', 'FieldValueInvalid', 'Invalid value: "x": ClusterTrustBundle for signerName nodomain must be named with prefix nodomain:'),
      cause('spec.signerName', 'FieldValueInvalid', `Invalid value: "nodomain": must be a fully qualified domain and path of the form 'example.com/signer-name'`),
    ]);
  });
});

describe('update', () => {
  const stored = async (spec: Record<string, unknown>, name = 'example.com:foo:roots'): Promise<KObject> =>
    ({ ...ctb(name, spec), metadata: { name, resourceVersion: '3' } }) as KObject;

  it('keeps signerName immutable', async () => {
    const old = await stored({ signerName: 'example.com/foo', trustBundle: await ca() });
    const { errs } = await runUpdate(def, { ...old, spec: { ...(old.spec as object), signerName: 'example.com/bar' } }, old, ctx);
    expect(causes(errs)).toEqual([
      cause('metadata.name', 'FieldValueInvalid', 'Invalid value: "example.com:foo:roots": ClusterTrustBundle for signerName example.com/bar must be named with prefix example.com:bar:'),
      cause('spec.signerName', 'FieldValueInvalid', 'Invalid value: "example.com/bar": field is immutable'),
    ]);
  });

  it('does not re-parse an unchanged bundle, but validates a changed one', async () => {
    const old = await stored({ signerName: 'example.com/foo', trustBundle: await leaf() });
    expect((await runUpdate(def, { ...old, metadata: { ...old.metadata, labels: { a: 'b' } } }, old, ctx)).errs).toEqual([]);
    const changed = await runUpdate(def, { ...old, spec: { signerName: 'example.com/foo', trustBundle: await leaf() } }, old, ctx);
    expect(causes(changed.errs)).toEqual([omitted('entry 0 does not have the CA bit set')]);
    const fixed = await runUpdate(def, { ...old, spec: { signerName: 'example.com/foo', trustBundle: await ca() } }, old, ctx);
    expect(fixed.errs).toEqual([]);
  });
});
