/** The spec's permission rules on certificate writes: approve, sign, attest, and the system:masters subject restriction. */
import { grantClusterRole } from '../support/rbac-grant';
import { backends } from '../support/test-server';
import { startSecureTestServer, SecureTestServer, Credentials } from '../support/secure-server';
import { makeCaCertPem, makeCsrPem, makeLeafCertPem } from '../support/crypto-fixtures';

const CSRS = '/apis/certificates.svc.io/v1/certificatesigningrequests';
const CTBS = '/apis/certificates.svc.io/v1/clustertrustbundles';
const b64 = (s: string) => Buffer.from(s).toString('base64');

describe.each(backends)('certificate admission on %s', (backend) => {
  let s: SecureTestServer;
  let admin: Credentials;
  let alice: Credentials;
  const grant = (name: string, rules: unknown[]) => grantClusterRole(s, admin, name, rules, 'alice');
  const csrBody = async (name: string, signerName: string, organizations: string[] = []) => {
    const { pem } = await makeCsrPem({ keyType: 'ECDSAP256', cn: name, organizations, freshKey: true });
    return { metadata: { name }, spec: { request: b64(pem), signerName, usages: ['digital signature', 'client auth'] } };
  };
  const approval = { type: 'Approved', status: 'True', reason: 'Test', message: 'ok' };

  beforeAll(async () => {
    s = await startSecureTestServer(backend);
    admin = await s.clientCert('system:admin', ['system:masters']);
    alice = await s.clientCert('alice', ['dev']);
    await grant('csr-writer', [
      { apiGroups: ['certificates.svc.io'], resources: ['certificatesigningrequests', 'certificatesigningrequests/approval', 'certificatesigningrequests/status'], verbs: ['create', 'get', 'update', 'patch'] },
      { apiGroups: ['certificates.svc.io'], resources: ['clustertrustbundles'], verbs: ['create', 'update'] },
    ]);
  });
  afterAll(() => s.close());

  it('the requester identity fills spec.username and groups', async () => {
    const r = await s.call('POST', CSRS, alice, { ...(await csrBody('who', 'example.com/foo')), spec: { ...(await csrBody('who', 'example.com/foo')).spec, username: 'mallory', groups: ['system:masters'] } });
    expect(r.status).toBe(201);
    expect(r.json.spec).toMatchObject({ username: 'alice', groups: ['dev', 'system:authenticated'] });
  });

  it('approval needs approve on the signer (exact name or domain/*)', async () => {
    const created = (await s.call('POST', CSRS, alice, await csrBody('to-approve', 'example.com/foo'))).json;
    const approve = () => s.call('PUT', `${CSRS}/to-approve/approval`, alice, { ...created, status: { conditions: [approval] } });
    const denied = await approve();
    expect(denied.status).toBe(403);
    expect(denied.json.message).toBe('certificatesigningrequests.certificates.svc.io "to-approve" is forbidden: user not permitted to approve requests with signerName "example.com/foo"');
    await grant('approver', [{ apiGroups: ['certificates.svc.io'], resources: ['signers'], verbs: ['approve'], resourceNames: ['example.com/*'] }]);
    expect((await approve()).status).toBe(200);
  });

  it('setting status.certificate needs sign on the signer', async () => {
    const created = (await s.call('POST', CSRS, admin, await csrBody('to-sign', 'signing.example.com/bar'))).json;
    const approved = (await s.call('PUT', `${CSRS}/to-sign/approval`, admin, { ...created, status: { conditions: [approval] } })).json;
    const ca = await makeCaCertPem();
    const leaf = await makeLeafCertPem({ notBefore: new Date(Date.now() - 60_000), notAfter: new Date(Date.now() + 3_600_000), issuer: ca });
    const body = { ...approved, status: { ...approved.status, certificate: b64(leaf.pem) } };
    const denied = await s.call('PUT', `${CSRS}/to-sign/status`, alice, body);
    expect(denied.status).toBe(403);
    expect(denied.json.message).toBe('certificatesigningrequests.certificates.svc.io "to-sign" is forbidden: user not permitted to sign requests with signerName "signing.example.com/bar"');
    await grant('signer', [{ apiGroups: ['certificates.svc.io'], resources: ['signers'], verbs: ['sign'], resourceNames: ['signing.example.com/bar'] }]);
    expect((await s.call('PUT', `${CSRS}/to-sign/status`, alice, body)).status).toBe(200);
  });

  it('svc.io/apiserver-client refuses a system:masters subject, even from an administrator', async () => {
    const r = await s.call('POST', CSRS, admin, await csrBody('masters', 'svc.io/apiserver-client', ['system:masters']));
    expect(r.status).toBe(403);
    expect(r.json.message).toBe('certificatesigningrequests.certificates.svc.io "masters" is forbidden: use of svc.io/apiserver-client signer with system:masters group is not allowed');
    expect((await s.call('POST', CSRS, admin, await csrBody('plain', 'svc.io/apiserver-client', ['dev']))).status).toBe(201);
  });

  it('a ClusterTrustBundle naming a signer needs attest on it', async () => {
    const ca = await makeCaCertPem();
    const body = { metadata: { name: 'attest.example.com:foo:roots' }, spec: { signerName: 'attest.example.com/foo', trustBundle: ca.pem } };
    const denied = await s.call('POST', CTBS, alice, body);
    expect(denied.status).toBe(403);
    expect(denied.json.message).toBe('clustertrustbundles.certificates.svc.io "attest.example.com:foo:roots" is forbidden: user not permitted to attest for signerName "attest.example.com/foo"');
    expect((await s.call('POST', CTBS, alice, { metadata: { name: 'unsigned-roots' }, spec: { trustBundle: ca.pem } })).status).toBe(201);
    await grant('attester', [{ apiGroups: ['certificates.svc.io'], resources: ['signers'], verbs: ['attest'], resourceNames: ['attest.example.com/foo'] }]);
    expect((await s.call('POST', CTBS, alice, body)).status).toBe(201);
  });
});
