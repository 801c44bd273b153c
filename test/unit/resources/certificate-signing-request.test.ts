import { certificateSigningRequestDefinition as def } from '../../../src/resources/certificate-signing-request';
import { KNOWN_USAGES } from '../../../src/resources/certificate-signing-request/certificate-signing-request.validation';
import { ApiError } from '../../../src/machinery/status';
import { isDNS1123Label } from '../../../src/machinery/validation/names';
import type { KObject } from '../../../src/machinery/object';
import { fixedNow, strategyContext } from '../../support/strategy-context';
import { makeCaCertPem, makeCsrPem, makeLeafCertPem, type FixtureKeyType } from '../../support/crypto-fixtures';
import { b64, cause, causes, runCreate, runUpdate, tamperSignature, toPem } from './certificates-helpers';

const ctx = strategyContext();
const NOW = '2026-01-02T03:04:05Z';
const HOUR = 3600 * 1000;
const sortedUsages = [...KNOWN_USAGES].sort().map((u) => JSON.stringify(u)).join(', ');

async function csr(overrides: Record<string, unknown> = {}, keyType: FixtureKeyType = 'ECDSAP256') {
  const { pem } = await makeCsrPem({ keyType });
  return {
    apiVersion: 'certificates.svc.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name: 'req' },
    spec: { request: b64(pem), signerName: 'example.com/signer', usages: ['digital signature', 'client auth'], ...overrides },
  };
}

async function stored(status: Record<string, unknown> = {}): Promise<KObject> {
  const { obj, errs } = await runCreate(def, await csr(), ctx);
  expect(errs).toEqual([]);
  return { ...obj, metadata: { ...obj.metadata, resourceVersion: '5' }, status };
}

const approved = { type: 'Approved', status: 'True', reason: 'OK', lastUpdateTime: NOW, lastTransitionTime: NOW };
const leafPem = () => makeLeafCertPem({ notBefore: new Date(Date.now() - HOUR), notAfter: new Date(Date.now() + 24 * HOUR) });

describe('CertificateSigningRequest definition', () => {
  it('is cluster-scoped certificates.svc.io/v1 with short name csr, /status and /approval', () => {
    expect(def).toMatchObject({
      group: 'certificates.svc.io', version: 'v1', kind: 'CertificateSigningRequest', plural: 'certificatesigningrequests',
      namespaced: false, shortNames: ['csr'], categories: [], allowCreateOnUpdate: false, allowUnconditionalUpdate: true,
      usesGeneration: false,
    });
    expect(Object.keys(def.subresources).sort()).toEqual(['approval', 'status']);
    expect(def.subresources.status.verbs).toEqual(['get', 'patch', 'update']);
    expect(def.fieldSelectors['spec.signerName']({ metadata: {}, spec: { signerName: 'a.io/b' } })).toBe('a.io/b');
  });

  it('accepts any name except path-segment breakers', () => {
    expect([def.validateName('Node:Foo Bar', false), def.validateName('a/b', false)]).toEqual([[], ["may not contain '/'"]]);
  });
});

describe('create', () => {
  it.each<FixtureKeyType>(['RSA2048', 'ECDSAP384', 'ED25519'])('accepts a signed %s request', async (keyType) => {
    expect((await runCreate(def, await csr({}, keyType), ctx)).errs).toEqual([]);
  });

  it('sets the requester from the authenticated user, ignoring client values, and empties status', async () => {
    const user = { username: 'alice', uid: 'u-1', groups: ['dev'], extra: { scopes: ['a', 'b'] } };
    const input = { ...(await csr({ username: 'mallory', uid: 'x', groups: ['system:masters'], extra: { k: ['v'] } })), status: { conditions: [approved] } };
    const { obj, errs } = await runCreate(def, input, { ...ctx, user });
    expect(errs).toEqual([]);
    expect(obj.spec).toMatchObject({ username: 'alice', uid: 'u-1', groups: ['dev'], extra: { scopes: ['a', 'b'] } });
    expect(obj.status).toEqual({});
  });

  it('omits uid, groups and extra the user does not have', async () => {
    const { obj } = await runCreate(def, await csr({ uid: 'x', groups: ['g'] }), { ...ctx, user: { username: 'bob', groups: [] } });
    expect(obj.spec).not.toHaveProperty('uid');
    expect(obj.spec).not.toHaveProperty('groups');
    expect(obj.spec).not.toHaveProperty('extra');
  });

  it('rejects a request that is not a CERTIFICATE REQUEST PEM block', async () => {
    const cert = await leafPem();
    for (const request of [b64('hello'), b64(cert.pem)]) {
      const { errs } = await runCreate(def, await csr({ request }), ctx);
      expect(errs).toHaveLength(1);
      expect(errs[0]).toMatchObject({ field: 'spec.request', type: 'FieldValueInvalid', detail: 'PEM block type must be CERTIFICATE REQUEST' });
      expect(causes(errs)[0].message).toMatch(/^Invalid value: \[\]byte\{0x[0-9a-f]+, .*\}: PEM block type must be CERTIFICATE REQUEST$/);
    }
  });

  it('rejects a request whose signature does not verify', async () => {
    const { der } = await makeCsrPem({ keyType: 'RSA2048' });
    const { errs } = await runCreate(def, await csr({ request: b64(toPem('CERTIFICATE REQUEST', tamperSignature(der))) }), ctx);
    expect(errs).toMatchObject([{ field: 'spec.request', type: 'FieldValueInvalid', detail: 'crypto/rsa: verification error' }]);
  });

  it('rejects undecodable PKCS#10 content', async () => {
    const { errs } = await runCreate(def, await csr({ request: b64(toPem('CERTIFICATE REQUEST', new Uint8Array([1, 2, 3]))) }), ctx);
    expect(errs).toMatchObject([{ field: 'spec.request', type: 'FieldValueInvalid' }]);
  });

  it('answers 400 for a request that is not base64', async () => {
    const run = async () => runCreate(def, await csr({ request: 'not base64!' }), ctx);
    await expect(run()).rejects.toBeInstanceOf(ApiError);
    await expect(run()).rejects.toMatchObject({
      code: 400,
      message: 'CertificateSigningRequest in version "v1" cannot be handled as a CertificateSigningRequest: illegal base64 data at input byte 3',
    });
  });

  it('requires usages, from the known list, without duplicates', async () => {
    expect(causes((await runCreate(def, await csr({ usages: [] }), ctx)).errs)).toEqual([cause('spec.usages', 'FieldValueRequired', 'Required value')]);
    const { errs } = await runCreate(def, await csr({ usages: ['client auth', 'bogus', 'client auth'] }), ctx);
    expect(causes(errs)).toEqual([
      cause('spec.usages[1]', 'FieldValueNotSupported', `Unsupported value: "bogus": supported values: ${sortedUsages}`),
      cause('spec.usages[2]', 'FieldValueDuplicate', 'Duplicate value: "client auth"'),
    ]);
  });

  it.each([
    ['', 'FieldValueRequired', 'Required value'],
    ['signer', 'FieldValueInvalid', `Invalid value: "signer": must be a fully qualified domain and path of the form 'example.com/signer-name'`],
    ['a/b/c', 'FieldValueInvalid', `Invalid value: "a/b/c": must be a fully qualified domain and path of the form 'example.com/signer-name'`],
    ['example/signer', 'FieldValueInvalid', 'Invalid value: "example": should be a domain with at least two segments separated by dots'],
    ['Example.com/signer', 'FieldValueInvalid', `Invalid value: "Example.com": validating label "Example": ${isDNS1123Label('Example')[0]}`],
    ['svc.io/legacy-unknown', 'FieldValueInvalid', 'Invalid value: "svc.io/legacy-unknown": the legacy signerName is not allowed via this API version'],
  ])('signerName %j → %s', async (signerName, reason, message) => {
    expect(causes((await runCreate(def, await csr({ signerName }), ctx)).errs)).toEqual([cause('spec.signerName', reason, message)]);
  });

  it('limits signer name lengths', async () => {
    const long = `example.com/${'a'.repeat(600)}`;
    const { errs } = await runCreate(def, await csr({ signerName: long }), ctx);
    expect(causes(errs).at(-1)).toEqual(cause('spec.signerName', 'FieldValueTooLong', 'Too long: may not be more than 571 bytes'));
  });

  it('requires expirationSeconds of at least 600; accepts svc.io signers', async () => {
    expect((await runCreate(def, await csr({ expirationSeconds: 600, signerName: 'svc.io/apiserver-client' }), ctx)).errs).toEqual([]);
    expect(causes((await runCreate(def, await csr({ expirationSeconds: 599 }), ctx)).errs)).toEqual([
      cause('spec.expirationSeconds', 'FieldValueInvalid', 'Invalid value: 599: may not specify a duration less than 600 seconds (10 minutes)'),
    ]);
  });
});

describe('main-resource update', () => {
  it('keeps spec and status as stored; only metadata changes', async () => {
    const old = await stored();
    const input = { ...structuredClone(old), metadata: { ...old.metadata, labels: { a: 'b' } } } as Record<string, unknown>;
    input.spec = { ...(old.spec as object), signerName: 'other.com/x', usages: ['any'] };
    input.status = { conditions: [approved], certificate: b64((await leafPem()).pem) };
    const { obj, errs } = await runUpdate(def, input, old, ctx);
    expect([errs, obj.spec, obj.status]).toEqual([[], old.spec, {}]);
    expect(obj.metadata.labels).toEqual({ a: 'b' });
  });
});

describe('/approval', () => {
  it('adds Approved with server-set timestamps', async () => {
    const old = await stored();
    const input = { ...structuredClone(old), status: { conditions: [{ type: 'Approved', status: 'True', reason: 'OK' }] } };
    const { obj, errs } = await runUpdate(def, input, old, ctx, 'approval');
    expect(errs).toEqual([]);
    expect(obj.status).toEqual({ conditions: [{ ...approved, lastUpdateTime: NOW, lastTransitionTime: NOW }] });
  });

  it('rejects Approved together with Denied', async () => {
    const old = await stored();
    const denied = { ...approved, type: 'Denied' };
    const { errs } = await runUpdate(def, { ...old, status: { conditions: [approved, denied] } }, old, ctx, 'approval');
    expect(causes(errs)).toEqual([
      cause('status.conditions', 'FieldValueInvalid', 'Invalid value: "Denied": Approved and Denied conditions are mutually exclusive'),
    ]);
  });

  it('requires status True, one condition per type, and never removes one', async () => {
    const old = await stored({ conditions: [approved] });
    let { errs } = await runUpdate(def, { ...old, status: { conditions: [{ ...approved, status: 'False' }] } }, old, ctx, 'approval');
    expect(causes(errs)).toEqual([cause('status.conditions[0].status', 'FieldValueNotSupported', 'Unsupported value: "False": supported values: "True"')]);
    ({ errs } = await runUpdate(def, { ...old, status: { conditions: [approved, approved] } }, old, ctx, 'approval'));
    expect(causes(errs)).toEqual([cause('status.conditions[1].type', 'FieldValueDuplicate', 'Duplicate value: "Approved"')]);
    ({ errs } = await runUpdate(def, { ...old, status: {} }, old, ctx, 'approval'));
    expect(causes(errs)).toEqual([cause('status.conditions', 'FieldValueForbidden', 'Forbidden: updates may not remove a condition of type "Approved"')]);
  });

  // Upstream's "CertificateSigningRequest API" conformance test: a custom condition through /approval, then Approved beside it.
  it('takes conditions of any type as sent, with timestamps', async () => {
    const old = await stored();
    const custom = { type: 'ApprovalPatch', status: 'True', reason: 'e2e' };
    const first = await runUpdate(def, { ...old, status: { conditions: [custom] } }, old, ctx, 'approval');
    expect(first.errs).toEqual([]);
    const stamped = { ...custom, lastUpdateTime: NOW, lastTransitionTime: NOW };
    expect(first.obj.status).toEqual({ conditions: [stamped] });
    const conditions = [stamped, { type: 'Approved', status: 'True', reason: 'E2E' }];
    const second = await runUpdate(def, { ...first.obj, status: { conditions } }, first.obj, ctx, 'approval');
    expect(second.errs).toEqual([]);
    expect((second.obj.status as { conditions: Array<{ type: string }> }).conditions.map((c) => c.type)).toEqual(['ApprovalPatch', 'Approved']);
  });

  it('validates conditions of other types instead of dropping them', async () => {
    const old = await stored();
    const { errs } = await runUpdate(def, { ...old, status: { conditions: [approved, { type: '', status: '' }] } }, old, ctx, 'approval');
    expect(causes(errs)).toEqual([
      cause('status.conditions[1].type', 'FieldValueRequired', 'Required value'),
      cause('status.conditions[1].status', 'FieldValueRequired', 'Required value'),
    ]);
  });

  it('keeps the stored certificate, and may not remove Failed', async () => {
    const failed = { type: 'Failed', status: 'True', reason: 'X', lastUpdateTime: NOW, lastTransitionTime: NOW };
    const old = await stored({ conditions: [approved, failed] });
    const certificate = b64((await leafPem()).pem);
    let { obj, errs } = await runUpdate(def, { ...old, status: { conditions: [approved], certificate } }, old, ctx, 'approval');
    expect(causes(errs)).toEqual([cause('status.conditions', 'FieldValueForbidden', 'Forbidden: updates may not remove a condition of type "Failed"')]);
    ({ obj, errs } = await runUpdate(def, { ...old, status: { conditions: [approved, failed], certificate } }, old, ctx, 'approval'));
    expect(errs).toEqual([]);
    expect(obj.status).toEqual({ conditions: [approved, failed] });
  });

  it('keeps metadata changes (the CSR strategies predate ResetObjectMetaForStatus)', async () => {
    const old = await stored();
    const input = { ...old, metadata: { ...old.metadata, annotations: { patchedapproval: 'true' } }, status: { conditions: [approved] } };
    const { obj, errs } = await runUpdate(def, input, old, ctx, 'approval');
    expect(errs).toEqual([]);
    expect(obj.metadata.annotations).toEqual({ patchedapproval: 'true' });
  });
});

describe('/status', () => {
  it('adds Failed with timestamps, keeping the transition time of an unchanged condition', async () => {
    const earlier = '2025-12-01T00:00:00Z';
    const custom = { type: 'Custom', status: 'True', lastUpdateTime: earlier, lastTransitionTime: earlier };
    const old = await stored({ conditions: [custom] });
    const input = { ...old, status: { conditions: [{ type: 'Custom', status: 'True' }, { type: 'Failed', status: 'True', reason: 'SignerValidationFailure' }] } };
    const { obj, errs } = await runUpdate(def, input, old, ctx, 'status');
    expect(errs).toEqual([]);
    expect((obj.status as { conditions: unknown[] }).conditions).toEqual([
      { type: 'Custom', status: 'True', lastUpdateTime: NOW, lastTransitionTime: earlier },
      { type: 'Failed', status: 'True', reason: 'SignerValidationFailure', lastUpdateTime: NOW, lastTransitionTime: NOW },
    ]);
  });

  it('cannot add or remove Approved or Denied, and keeps their stored values', async () => {
    const old = await stored();
    let { errs } = await runUpdate(def, { ...old, status: { conditions: [approved] } }, old, ctx, 'status');
    expect(causes(errs)).toEqual([cause('status.conditions', 'FieldValueForbidden', 'Forbidden: updates may not add a condition of type "Approved"')]);
    const withApproval = await stored({ conditions: [approved] });
    const edited = { ...withApproval, status: { conditions: [{ ...approved, reason: 'Changed' }] } };
    const result = await runUpdate(def, edited, withApproval, ctx, 'status');
    expect(result.errs).toEqual([]);
    expect(result.obj.status).toEqual({ conditions: [approved] });
    ({ errs } = await runUpdate(def, { ...withApproval, status: {} }, withApproval, ctx, 'status'));
    expect(causes(errs)).toEqual([cause('status.conditions', 'FieldValueForbidden', 'Forbidden: updates may not remove a condition of type "Approved"')]);
  });

  it('sets the certificate only after approval, and only once', async () => {
    const cert = b64((await leafPem()).pem);
    const pending = await stored();
    let { errs } = await runUpdate(def, { ...pending, status: { certificate: cert } }, pending, ctx, 'status');
    expect(causes(errs)).toEqual([
      cause('status.certificate', 'FieldValueForbidden', 'Forbidden: certificate may only be set once the request has an Approved condition'),
    ]);
    const ok = await stored({ conditions: [approved] });
    const issued = await runUpdate(def, { ...ok, status: { conditions: [approved], certificate: cert } }, ok, ctx, 'status');
    expect(issued.errs).toEqual([]);
    const other = b64((await makeCaCertPem()).pem);
    ({ errs } = await runUpdate(def, { ...issued.obj, status: { conditions: [approved], certificate: other } }, issued.obj, ctx, 'status'));
    expect(causes(errs)).toEqual([cause('status.certificate', 'FieldValueForbidden', 'Forbidden: updates may not modify existing certificate content')]);
  });

  it('accepts a chain of several certificates with text around the blocks', async () => {
    const ok = await stored({ conditions: [approved] });
    const chain = `issued by example\n${(await leafPem()).pem}\n${(await makeCaCertPem()).pem}\ntrailer\n`;
    expect((await runUpdate(def, { ...ok, status: { conditions: [approved], certificate: b64(chain) } }, ok, ctx, 'status')).errs).toEqual([]);
  });

  it.each([
    ['no PEM block', () => 'just text', 'must contain at least one CERTIFICATE PEM block'],
    ['another block type', () => toPem('PRIVATE KEY', new Uint8Array([1, 2])), 'only CERTIFICATE PEM blocks are allowed, found "PRIVATE KEY"'],
    ['block headers', async () => toPem('CERTIFICATE', (await leafPem()).der, { 'Proc-Type': '4,ENCRYPTED' }), 'no PEM block headers are permitted'],
    ['garbage DER', () => toPem('CERTIFICATE', new Uint8Array([0x30, 0x03, 1, 2, 3])), 'x509: malformed certificate'],
  ])('rejects a certificate with %s', async (_title, make, message) => {
    const ok = await stored({ conditions: [approved] });
    const { errs } = await runUpdate(def, { ...ok, status: { conditions: [approved], certificate: b64(await make()) } }, ok, ctx, 'status');
    expect(causes(errs)).toEqual([cause('status.certificate', 'FieldValueInvalid', `Invalid value: "<certificate data>": ${message}`)]);
  });

  it('requires a type and a status on every condition', async () => {
    const old = await stored();
    const { errs } = await runUpdate(def, { ...old, status: { conditions: [{ type: '', status: '' }, { type: 'Custom', status: 'Maybe' }] } }, old, ctx, 'status');
    expect(causes(errs)).toEqual([
      cause('status.conditions[0].type', 'FieldValueRequired', 'Required value'),
      cause('status.conditions[0].status', 'FieldValueRequired', 'Required value'),
      cause('status.conditions[1].status', 'FieldValueNotSupported', 'Unsupported value: "Maybe": supported values: "False", "True", "Unknown"'),
    ]);
  });

  it('cannot remove Failed', async () => {
    const failed = { type: 'Failed', status: 'True', lastUpdateTime: NOW, lastTransitionTime: NOW };
    const old = await stored({ conditions: [failed] });
    const { errs } = await runUpdate(def, { ...old, status: {} }, old, ctx, 'status');
    expect(causes(errs)).toEqual([cause('status.conditions', 'FieldValueForbidden', 'Forbidden: updates may not remove a condition of type "Failed"')]);
  });

  it('keeps metadata changes (the CSR strategies predate ResetObjectMetaForStatus)', async () => {
    const old = await stored({ conditions: [approved] });
    const input = { ...old, metadata: { ...old.metadata, labels: { x: 'y' }, annotations: { patchedstatus: 'true' } }, status: { conditions: [approved] } };
    const { obj, errs } = await runUpdate(def, input, old, ctx, 'status');
    expect(errs).toEqual([]);
    expect([obj.metadata.labels, obj.metadata.annotations]).toEqual([{ x: 'y' }, { patchedstatus: 'true' }]);
  });

  it('stores condition times at second precision', async () => {
    const old = await stored();
    const input = { ...old, status: { conditions: [{ type: 'Failed', status: 'True', lastUpdateTime: '2026-01-02T03:04:05.678Z', lastTransitionTime: '2026-01-02T04:04:05.1+01:00' }] } };
    const { obj } = await runUpdate(def, input, old, ctx, 'status');
    expect((obj.status as { conditions: Record<string, string>[] }).conditions[0]).toMatchObject({ lastUpdateTime: NOW, lastTransitionTime: NOW });
  });

  it('answers 400 for a malformed condition time', async () => {
    const old = await stored();
    const input = { ...old, status: { conditions: [{ type: 'Failed', status: 'True', lastUpdateTime: 'yesterday' }] } };
    await expect(runUpdate(def, input, old, ctx, 'status')).rejects.toMatchObject({ code: 400 });
  });
});

describe('table', () => {
  it('prints upstream columns and condition summary', async () => {
    expect(def.table!.columns.map((c) => c.name)).toEqual(['Name', 'Age', 'SignerName', 'Requestor', 'RequestedDuration', 'Condition']);
    const { obj } = await runCreate(def, await csr({ expirationSeconds: 3600 }), { ...ctx, user: { username: 'alice', groups: [] } });
    obj.metadata.creationTimestamp = '2026-01-02T03:00:00Z';
    expect(def.table!.cells(obj, fixedNow)).toEqual(['req', '4m5s', 'example.com/signer', 'alice', '60m', 'Pending']);
    const denied = { ...obj, spec: { ...(obj.spec as object), expirationSeconds: undefined }, status: { conditions: [{ type: 'Approved' }, { type: 'Denied' }, { type: 'Failed' }], certificate: 'eA==' } };
    expect(def.table!.cells(denied, fixedNow).slice(4)).toEqual(['<none>', 'Denied,Failed,Issued']);
  });
});
