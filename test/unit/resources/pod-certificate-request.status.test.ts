import { makeCaCertPem } from '../../support/crypto-fixtures';
import { cause, runUpdate, toPem } from './certificates-helpers';
import { at, condition, ctx, def, iso, issued, stored, statusErrs } from './pod-certificate-request.support';

describe('/status', () => {
  it('issues with chain and times set together, then freezes', async () => {
    const old = await stored();
    const status = await issued();
    const { obj, errs } = await runUpdate(def, { ...old, status }, old, ctx, 'status');
    expect(errs).toEqual([]);
    expect(await statusErrs({ ...status, beginRefreshAt: iso(at(100)) }, obj)).toEqual([
      cause('status', 'FieldValueInvalid', 'Invalid value: immutable after PodCertificateRequest is issued, denied, or failed'),
    ]);
    expect(await statusErrs(structuredClone(obj.status as Record<string, unknown>), obj)).toEqual([]);
  });

  it('keeps spec and metadata from the stored object', async () => {
    const old = await stored();
    const input = { ...old, metadata: { ...old.metadata, labels: { x: 'y' } }, spec: { ...(old.spec as object), podName: 'changed' } };
    const { obj } = await runUpdate(def, input, old, ctx, 'status');
    expect(obj.spec).toEqual(old.spec);
    expect(obj.metadata.labels).toBeUndefined();
  });

  it('accepts intermediates after the leaf', async () => {
    const status = await issued();
    status.certificateChain += `${(await makeCaCertPem()).pem}\n`;
    expect(await statusErrs(status)).toEqual([]);
  });

  it('denies or fails without other fields', async () => {
    expect(await statusErrs({ conditions: [condition('Denied', { reason: 'UnsupportedKeyType' })] })).toEqual([]);
    expect(await statusErrs({ conditions: [condition('Failed')], certificateChain: 'x' })).toEqual([
      cause('status', 'FieldValueInvalid', 'Invalid value: non-condition status fields must be empty when denying or failing the PodCertificateRequest'),
    ]);
  });

  it('changes nothing without a terminal condition', async () => {
    const { conditions: _c, ...rest } = await issued();
    expect(await statusErrs(rest)).toEqual([
      cause('status', 'FieldValueInvalid', 'Invalid value: status is immutable unless transitioning to "Issued", "Denied", or "Failed"'),
    ]);
  });

  it('allows only one True condition of type Issued, Denied or Failed', async () => {
    expect(await statusErrs({ conditions: [condition('Ready')] })).toEqual([
      cause('status.conditions.[0].type', 'FieldValueNotSupported', 'Unsupported value: "Ready": supported values: "Issued", "Denied", "Failed"'),
    ]);
    expect(await statusErrs({ conditions: [condition('Denied'), condition('Failed')] })).toEqual([
      cause('status.conditions.[1].type', 'FieldValueInvalid', 'Invalid value: "Failed": There may be at most one condition with type "Issued", "Denied", or "Failed"'),
    ]);
    expect(await statusErrs({ conditions: [condition('Denied', { status: 'False' })] })).toEqual([
      cause('status.conditions.[0].status', 'FieldValueNotSupported', 'Unsupported value: "False": supported values: "True"'),
    ]);
  });

  it('validates conditions as metav1.Condition', async () => {
    const bad = { type: 'Denied', status: 'True', reason: '', observedGeneration: -1, message: 'm'.repeat(32 * 1024 + 1) };
    expect(await statusErrs({ conditions: [bad, condition('Denied')] })).toEqual([
      cause('status.conditions.[1].type', 'FieldValueInvalid', 'Invalid value: "Denied": There may be at most one condition with type "Issued", "Denied", or "Failed"'),
      cause('status.conditions[0].observedGeneration', 'FieldValueInvalid', 'Invalid value: -1: must be greater than or equal to zero'),
      cause('status.conditions[0].lastTransitionTime', 'FieldValueRequired', 'Required value: must be set'),
      cause('status.conditions[0].reason', 'FieldValueRequired', 'Required value: must be set'),
      cause('status.conditions[0].message', 'FieldValueTooLong', 'Too long: may not be more than 32768 bytes'),
      cause('status.conditions[1].type', 'FieldValueDuplicate', 'Duplicate value: "Denied"'),
    ]);
    const [reasonErr] = await statusErrs({ conditions: [condition('Denied', { reason: '9lives' })] });
    expect(reasonErr).toMatchObject({ field: 'status.conditions[0].reason', reason: 'FieldValueInvalid' });
    expect(reasonErr.message).toContain('a condition reason must start with alphabetic character');
  });

  it('requires notBefore, notAfter and beginRefreshAt with the chain', async () => {
    const { notBefore: _a, notAfter: _b, beginRefreshAt: _c, ...status } = await issued();
    expect(await statusErrs(status)).toEqual([
      cause('status.notBefore', 'FieldValueRequired', 'Required value: must be present and consistent with the issued certificate'),
      cause('status.notAfter', 'FieldValueRequired', 'Required value: must be present and consistent with the issued certificate'),
      cause('status.beginRefreshAt', 'FieldValueRequired', 'Required value: must be present and in the range [notbefore+10min, notafter-10min]'),
    ]);
  });

  it('requires notBefore and notAfter equal to the leaf', async () => {
    expect(await statusErrs(await issued(86400, { notBefore: iso(at(1)) }))).toEqual([
      cause('status.notBefore', 'FieldValueInvalid', 'Invalid value: 2026-01-02 03:00:01 +0000 UTC: must be set to the NotBefore time encoded in the leaf certificate'),
    ]);
    expect(await statusErrs(await issued(86400, { notAfter: iso(at(80000)) }))).toEqual([
      cause('status.notAfter', 'FieldValueInvalid', 'Invalid value: 2026-01-03 01:13:20 +0000 UTC: must be set to the NotAfter time encoded in the leaf certificate'),
    ]);
  });

  it('bounds the leaf lifetime by 1 hour and maxExpirationSeconds', async () => {
    expect(await statusErrs(await issued(1800))).toEqual([
      cause('status.certificateChain', 'FieldValueInvalid', 'Invalid value: 30m0s: leaf certificate lifetime must be >= 1 hour'),
    ]);
    expect(await statusErrs(await issued(90000))).toEqual([
      cause('status.certificateChain', 'FieldValueInvalid', 'Invalid value: 25h0m0s: leaf certificate lifetime must be <= spec.maxExpirationSeconds (86400)'),
    ]);
    expect(await statusErrs(await issued(3600))).toEqual([]);
  });

  it('keeps beginRefreshAt 10 minutes inside the validity window', async () => {
    expect(await statusErrs(await issued(86400, { beginRefreshAt: iso(at(599)) }))).toEqual([
      cause('status.beginRefreshAt', 'FieldValueInvalid', 'Invalid value: 2026-01-02 03:09:59 +0000 UTC: must be at least 10 minutes after status.notBefore'),
    ]);
    expect(await statusErrs(await issued(86400, { beginRefreshAt: iso(at(86400 - 599)) }))).toEqual([
      cause('status.beginRefreshAt', 'FieldValueInvalid', 'Invalid value: 2026-01-03 02:50:01 +0000 UTC: must be at least 10 minutes before status.notAfter'),
    ]);
  });

  it.each([
    ['an empty chain', async () => '', 'issued certificate chain must contain at least one certificate'],
    ['a non-certificate leaf', async () => toPem('PRIVATE KEY', new Uint8Array([1])), 'issued certificate chain must consist entirely of CERTIFICATE PEM blocks'],
    ['a garbage leaf', async () => toPem('CERTIFICATE', new Uint8Array([0x30, 0])), 'leaf certificate does not parse as valid X.509'],
    ['a non-certificate intermediate', async () => (await issued()).certificateChain + toPem('X', new Uint8Array([1])), 'issued certificate chain must consist entirely of CERTFICATE PEM blocks'],
    ['a garbage intermediate', async () => (await issued()).certificateChain + toPem('CERTIFICATE', new Uint8Array([0x30, 0])), 'intermediate certificate does not parse as valid X.509'],
  ])('rejects %s', async (_title, chain, message) => {
    const certificateChain = await chain();
    expect(await statusErrs(await issued(86400, { certificateChain }))).toEqual([
      cause('status.certificateChain', 'FieldValueInvalid', `Invalid value: ${JSON.stringify(certificateChain)}: ${message}`),
    ]);
  });

  it('limits the chain to 100 KiB', async () => {
    expect(await statusErrs(await issued(86400, { certificateChain: 'x'.repeat(102401) }))).toEqual([
      cause('status.certificateChain', 'FieldValueTooLong', 'Too long: may not be more than 102400 bytes'),
    ]);
  });

  it('stores times at second precision and rejects malformed ones with 400', async () => {
    const old = await stored();
    const status = await issued(86400, { beginRefreshAt: `${iso(at(43200)).slice(0, -1)}.9Z` });
    const { obj, errs } = await runUpdate(def, { ...old, status }, old, ctx, 'status');
    expect(errs).toEqual([]);
    expect((obj.status as Record<string, string>).beginRefreshAt).toBe(iso(at(43200)));
    await expect(runUpdate(def, { ...old, status: { notBefore: 'soon' } }, old, ctx, 'status')).rejects.toMatchObject({ code: 400 });
  });
});
