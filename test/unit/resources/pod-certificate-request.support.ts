/** Shared builders for the PodCertificateRequest test suites. */
import { podCertificateRequestDefinition as def } from '../../../src/resources/pod-certificate-request';
import type { KObject } from '../../../src/machinery/object';
import { strategyContext } from '../../support/strategy-context';
import { makeCsrPem, makeLeafCertPem, type FixtureKeyType } from '../../support/crypto-fixtures';
import { b64, causes, runCreate, runUpdate } from './certificates-helpers';

export { def };
export const ctx = strategyContext();
export const NOW = '2026-01-02T03:04:05Z';
export const T0 = new Date('2026-01-02T03:00:00Z');
export const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
export const iso = (d: Date) => d.toISOString().replace('.000Z', 'Z');

export async function pcr(overrides: Record<string, unknown> = {}, keyType: FixtureKeyType = 'ECDSAP256') {
  const { der } = await makeCsrPem({ keyType, cn: '' });
  return {
    apiVersion: 'certificates.svc.io/v1',
    kind: 'PodCertificateRequest',
    metadata: { name: 'req', namespace: 'ns' },
    spec: {
      signerName: 'example.com/signer',
      podName: 'pod-1', podUID: 'pod-uid',
      serviceAccountName: 'default', serviceAccountUID: 'sa-uid',
      nodeName: 'node-1', nodeUID: 'node-uid',
      stubPKCS10Request: b64(der),
      ...overrides,
    },
  };
}

export const createErrs = async (overrides: Record<string, unknown>, keyType?: FixtureKeyType) =>
  causes((await runCreate(def, await pcr(overrides, keyType), ctx)).errs);

export async function stored(status: Record<string, unknown> = {}, spec: Record<string, unknown> = {}): Promise<KObject> {
  const { obj, errs } = await runCreate(def, await pcr(spec), ctx);
  expect(errs).toEqual([]);
  return { ...obj, metadata: { ...obj.metadata, resourceVersion: '7' }, status };
}

export const condition = (type: string, extra: Record<string, unknown> = {}) => ({ type, status: 'True', reason: type, message: '', lastTransitionTime: NOW, ...extra });

/** A valid Issued status for a leaf valid from T0 for `lifetime` seconds. */
export async function issued(lifetime = 86400, extra: Record<string, unknown> = {}) {
  const leaf = await makeLeafCertPem({ notBefore: T0, notAfter: at(lifetime) });
  return {
    conditions: [condition('Issued')],
    certificateChain: `${leaf.pem}\n`,
    notBefore: iso(T0),
    notAfter: iso(at(lifetime)),
    beginRefreshAt: iso(at(lifetime / 2)),
    ...extra,
  };
}

export const statusErrs = async (status: Record<string, unknown>, old?: KObject) => {
  const prev = old ?? (await stored());
  return causes((await runUpdate(def, { ...prev, status }, prev, ctx, 'status')).errs);
};
