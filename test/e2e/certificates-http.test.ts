/**
 * The certificates.svc.io kinds over HTTP: the CSR approval and issuing
 * flow through /approval and /status, field selectors, tables, and the PCR
 * status conditions merged by type.
 */
import { startTestServer, TestServer } from '../support/test-server';
import { makeCsrPem, makeLeafCertPem } from '../support/crypto-fixtures';

const CSRS = '/apis/certificates.svc.io/v1/certificatesigningrequests';
const PCRS = '/apis/certificates.svc.io/v1/namespaces/default/podcertificaterequests';
const b64 = (s: string) => Buffer.from(s).toString('base64');
const HOUR = 3600 * 1000;
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer('lmdb');
});
afterAll(async () => {
  await s.close();
});

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(s.url + path, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

async function createCsr(name: string, signerName = 'example.com/signer') {
  const { pem } = await makeCsrPem({ keyType: 'ECDSAP256' });
  const spec = { request: b64(pem), signerName, usages: ['digital signature', 'client auth'], username: 'mallory' };
  const res = await call('POST', CSRS, { apiVersion: 'certificates.svc.io/v1', kind: 'CertificateSigningRequest', metadata: { name }, spec });
  expect([res.status, res.json.message]).toEqual([201, undefined]);
  return res.json;
}

describe('CertificateSigningRequest', () => {
  it('is approved through /approval, then issued through /status', async () => {
    const created = await createCsr('flow');
    expect(created.spec).toMatchObject({ username: 'system:admin', groups: ['system:masters', 'system:authenticated'] });
    expect(created.status).toEqual({});

    // Approval cannot come through /status or the main resource.
    const approvedCondition = { type: 'Approved', status: 'True', reason: 'Test', message: 'ok' };
    const viaStatus = await call('PUT', `${CSRS}/flow/status`, { ...created, status: { conditions: [approvedCondition] } });
    expect(viaStatus.status).toBe(422);
    expect(viaStatus.json.details.causes).toEqual([
      { field: 'status.conditions', reason: 'FieldValueForbidden', message: 'Forbidden: updates may not add a condition of type "Approved"' },
    ]);
    const viaMain = await call('PUT', `${CSRS}/flow`, { ...created, status: { conditions: [approvedCondition] } });
    expect(viaMain.json.status).toEqual({});

    const approved = await call('PUT', `${CSRS}/flow/approval`, { ...created, status: { conditions: [approvedCondition] } });
    expect([approved.status, approved.json.message]).toEqual([200, undefined]);
    const [condition] = approved.json.status.conditions;
    expect(condition).toMatchObject(approvedCondition);
    expect(condition.lastUpdateTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(condition.lastTransitionTime).toBe(condition.lastUpdateTime);
    expect((await call('GET', `${CSRS}/flow/approval`)).json.status).toEqual(approved.json.status);

    const denied = await call('PATCH', `${CSRS}/flow/approval`, { status: { conditions: [condition, { type: 'Denied', status: 'True' }] } }, {
      'content-type': 'application/merge-patch+json',
    });
    expect(denied.status).toBe(422);

    const leaf = await makeLeafCertPem({ notBefore: new Date(Date.now() - HOUR), notAfter: new Date(Date.now() + 24 * HOUR) });
    const issued = await call('PUT', `${CSRS}/flow/status`, { ...approved.json, status: { ...approved.json.status, certificate: b64(leaf.pem) } });
    expect([issued.status, issued.json.message]).toEqual([200, undefined]);
    expect(issued.json.status.conditions).toEqual(approved.json.status.conditions);

    const table = await call('GET', `${CSRS}/flow`, undefined, { accept: 'application/json;as=Table;g=meta.k8s.io;v=v1' });
    expect(table.json.rows[0].cells.slice(2)).toEqual(['example.com/signer', 'system:admin', '<none>', 'Approved,Issued']);

    const reissue = await call('PATCH', `${CSRS}/flow/status`, { status: { certificate: b64(`${leaf.pem}\n${leaf.pem}`) } }, {
      'content-type': 'application/merge-patch+json',
    });
    expect(reissue.status).toBe(422);
    expect(reissue.json.details.causes[0]).toMatchObject({ field: 'status.certificate', reason: 'FieldValueForbidden' });
  });

  // The steps of upstream's "CertificateSigningRequest API" conformance test that touch the subresources.
  it('keeps custom approval conditions and metadata changes made through /approval and /status', async () => {
    const merge = { 'content-type': 'application/merge-patch+json' };
    await createCsr('upstream-e2e');
    const custom = await call('PATCH', `${CSRS}/upstream-e2e/approval`, { status: { conditions: [{ type: 'ApprovalPatch', status: 'True', reason: 'e2e' }] } }, merge);
    expect([custom.status, custom.json.message]).toEqual([200, undefined]);
    expect(custom.json.status.conditions.map((c: { type: string }) => c.type)).toEqual(['ApprovalPatch']);
    expect(custom.json.status.conditions[0].lastUpdateTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

    const withApproved = structuredClone(custom.json);
    withApproved.status.conditions.push({ type: 'Approved', status: 'True', reason: 'E2E', message: 'Set from an e2e test' });
    const approved = await call('PUT', `${CSRS}/upstream-e2e/approval`, withApproved);
    expect([approved.status, approved.json.message]).toEqual([200, undefined]);
    expect(approved.json.status.conditions.map((c: { type: string }) => c.type)).toEqual(['ApprovalPatch', 'Approved']);

    const leaf = await makeLeafCertPem({ notBefore: new Date(Date.now() - HOUR), notAfter: new Date(Date.now() + 24 * HOUR) });
    const status = await call('PATCH', `${CSRS}/upstream-e2e/status`, { metadata: { annotations: { patchedstatus: 'true' } }, status: { certificate: b64(leaf.pem) } }, merge);
    expect([status.status, status.json.message]).toEqual([200, undefined]);
    expect(status.json.metadata.annotations).toEqual({ patchedstatus: 'true' });
    expect(status.json.status.certificate).toBe(b64(leaf.pem));

    const approval = await call('PATCH', `${CSRS}/upstream-e2e/approval`, { metadata: { annotations: { patchedapproval: 'true' } } }, merge);
    expect([approval.status, approval.json.message]).toEqual([200, undefined]);
    expect((await call('GET', `${CSRS}/upstream-e2e`)).json.metadata.annotations).toEqual({ patchedstatus: 'true', patchedapproval: 'true' });
  });

  it('answers 422, not 500, for a null condition (Go decodes it as an empty one)', async () => {
    await createCsr('null-condition');
    for (const sub of ['approval', 'status']) {
      const res = await call('PATCH', `${CSRS}/null-condition/${sub}`, { status: { conditions: [null] } }, { 'content-type': 'application/merge-patch+json' });
      expect([res.status, res.json.details?.causes?.map((c: { field: string }) => c.field)]).toEqual([422, ['status.conditions[0].type', 'status.conditions[0].status']]);
    }
  });

  it('filters by spec.signerName', async () => {
    await createCsr('sel-a', 'a.example.com/one');
    await createCsr('sel-b', 'b.example.com/two');
    const res = await call('GET', `${CSRS}?fieldSelector=${encodeURIComponent('spec.signerName=b.example.com/two')}`);
    expect(res.json.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['sel-b']);
  });
});

describe('PodCertificateRequest', () => {
  it('merges status conditions by type and freezes once issued', async () => {
    const { der } = await makeCsrPem({ keyType: 'ED25519' });
    const spec = {
      signerName: 'example.com/signer', podName: 'p', podUID: 'pu', serviceAccountName: 'sa', serviceAccountUID: 'su',
      nodeName: 'n', nodeUID: 'nu', stubPKCS10Request: Buffer.from(der).toString('base64'),
    };
    const created = await call('POST', PCRS, { apiVersion: 'certificates.svc.io/v1', kind: 'PodCertificateRequest', metadata: { name: 'pcr' }, spec });
    expect([created.status, created.json.message]).toEqual([201, undefined]);
    expect(created.json.spec.maxExpirationSeconds).toBe(86400);

    const notBefore = Math.floor(Date.now() / 1000) * 1000;
    const leaf = await makeLeafCertPem({ notBefore: new Date(notBefore), notAfter: new Date(notBefore + 2 * HOUR) });
    const patch = {
      status: {
        conditions: [{ type: 'Issued', status: 'True', reason: 'Issued', message: '', lastTransitionTime: iso(notBefore) }],
        certificateChain: leaf.pem,
        notBefore: iso(notBefore),
        notAfter: iso(notBefore + 2 * HOUR),
        beginRefreshAt: iso(notBefore + HOUR),
      },
    };
    const issued = await call('PATCH', `${PCRS}/pcr/status`, patch, { 'content-type': 'application/strategic-merge-patch+json' });
    expect([issued.status, issued.json.message]).toEqual([200, undefined]);

    const again = await call('PATCH', `${PCRS}/pcr/status`, { status: { conditions: [{ type: 'Issued', message: 'changed' }] } }, {
      'content-type': 'application/strategic-merge-patch+json',
    });
    expect(again.status).toBe(422);
    expect(again.json.details.causes[0]).toMatchObject({ field: 'status', reason: 'FieldValueInvalid' });

    // Unlike the CSR, the PCR's status strategy resets metadata (upstream's ResetObjectMetaForStatus).
    const labelled = await call('PATCH', `${PCRS}/pcr/status`, { metadata: { labels: { via: 'status' } } }, { 'content-type': 'application/merge-patch+json' });
    expect([labelled.status, labelled.json.metadata.labels]).toEqual([200, undefined]);
  });
});
