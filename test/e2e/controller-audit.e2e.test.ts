/**
 * The real server process with --audit-log-path: a CSR created and approved
 * (through /approval) with the real kubectl, and the signer's certificatesigningrequests/status
 * update found in the audit log under the controller's identity, as
 * upstream's kube-controller-manager is audited over HTTP. (The backend does
 * not matter to audit; the in-process test runs on both.)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess, type ServerProcess } from '../support/server-process';
import { kubectlWithConfig, type Kubectl } from '../support/kubectl';
import { until } from '../support/until';

describe('controller writes in --audit-log-path', () => {
  let server: ServerProcess;
  let kubectl: Kubectl;
  let dir: string;
  let auditLog: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-audit-e2e-'));
    auditLog = join(dir, 'audit.log');
    server = await startServerProcess(['--audit-log-path', auditLog, '--cert-dir', join(dir, 'pki')], { dataDir: join(dir, 'data'), secureOnly: true });
    kubectl = kubectlWithConfig(server.kubeconfig);
  });
  afterAll(() => server.stop());

  it("a CSR approved with kubectl, then the signer's /status update as system:serviceaccount:kube-system:certificate-controller", async () => {
    const csr = join(dir, 'user.csr');
    execFileSync('openssl', ['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', join(dir, 'user.key'), '-subj', '/CN=audited-user', '-out', csr], { stdio: 'ignore' });
    const manifest = join(dir, 'csr.yaml');
    writeFileSync(
      manifest,
      `apiVersion: certificates.svc.io/v1
kind: CertificateSigningRequest
metadata:
  name: audited-user
spec:
  request: ${readFileSync(csr).toString('base64')}
  signerName: svc.io/apiserver-client
  usages: [client auth]
`,
    );
    // `kubectl certificate approve` knows certificates.k8s.io only: the approval goes through the /approval subresource.
    const approval = '[{"op":"add","path":"/status/conditions","value":[{"type":"Approved","status":"True","reason":"Audit","message":"approved for the audit test"}]}]';
    for (const args of [['create', '-f', manifest], ['patch', 'csr', 'audited-user', '--subresource=approval', '--type=json', '-p', approval]]) {
      const r = await kubectl(args);
      expect({ args, code: r.code, stderr: r.stderr }).toEqual({ args, code: 0, stderr: '' });
    }
    const uri = '/apis/certificates.svc.io/v1/certificatesigningrequests/audited-user/status';
    const found = await until("the signer's update in the audit log", () => {
      const lines = existsSync(auditLog) ? readFileSync(auditLog, 'utf8').split('\n').filter(Boolean) : [];
      return lines.map((l) => JSON.parse(l)).find((e) => e.requestURI === uri && e.stage === 'ResponseComplete');
    });
    expect(found).toMatchObject({
      level: 'Metadata',
      verb: 'update',
      user: { username: 'system:serviceaccount:kube-system:certificate-controller' },
      objectRef: { resource: 'certificatesigningrequests', name: 'audited-user', apiGroup: 'certificates.svc.io', apiVersion: 'v1', subresource: 'status' },
      responseStatus: { code: 200 },
    });
    const issued = await kubectl(['get', 'csr', 'audited-user', '-o', 'jsonpath={.status.certificate}']);
    expect(issued.stdout).not.toBe('');
  });
});
