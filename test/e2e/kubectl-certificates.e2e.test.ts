/**
 * The two certificate flows with the real kubectl against the real server
 * process, on both backends: onboarding a user (openssl key and CSR, kubectl
 * create, approval through the /approval subresource, the issued
 * certificate in a kubeconfig, whoami, a RoleBinding), and node bootstrap
 * (a bootstrap token creates a node client CSR that is approved and issued
 * with no human step). Every certificate is checked with openssl.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess, type ServerProcess } from '../support/server-process';
import { kubectlWithConfig, type Kubectl } from '../support/kubectl';
import { backends, etcdEndpoints } from '../support/test-server';
import { inspectCertificate } from '../support/certificate-check';
import { until } from '../support/until';

const bootstrapToken = '07401b.f395accd246ae52d';

describe.each(backends)('certificates with kubectl (%s)', (backend) => {
  let server: ServerProcess;
  let admin: Kubectl;
  let dir: string;
  let caPem: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-certs-e2e-'));
    const tokens = join(dir, 'tokens.csv');
    writeFileSync(tokens, `${bootstrapToken},kubelet-bootstrap,10001,"system:bootstrappers"\n`);
    const certDir = join(dir, 'pki');
    const args = ['--token-auth-file', tokens, '--cert-dir', certDir];
    if (backend === 'etcd') args.push('--etcd-servers', etcdEndpoints().join(','), '--etcd-prefix', `/e2e-${randomBytes(6).toString('hex')}`);
    server = await startServerProcess(args, { dataDir: join(dir, 'data'), secureOnly: true });
    admin = kubectlWithConfig(server.kubeconfig);
    caPem = readFileSync(join(certDir, 'ca.crt'), 'utf8');
  });
  afterAll(() => server.stop());

  const ok = async (kubectl: Kubectl, args: string[]) => {
    const r = await kubectl(args);
    expect({ args, code: r.code, stderr: r.stderr }).toEqual({ args, code: 0, stderr: '' });
    return r.stdout;
  };
  /** A key and a CSR made with openssl, and a CSR manifest for them. */
  const request = (name: string, subject: string, signerName: string, usages: string[], extra = '') => {
    const key = join(dir, `${name}.key`);
    const csr = join(dir, `${name}.csr`);
    execFileSync('openssl', ['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', key, '-subj', subject, '-out', csr], { stdio: 'ignore' });
    const manifest = join(dir, `${name}.yaml`);
    writeFileSync(
      manifest,
      `apiVersion: certificates.svc.io/v1
kind: CertificateSigningRequest
metadata:
  name: ${name}
spec:
  request: ${readFileSync(csr).toString('base64')}
  signerName: ${signerName}
  usages: [${usages.join(', ')}]
${extra}`,
    );
    return { key, manifest };
  };
  /** The issued certificate, waited for (bounded). */
  const certificateOf = (name: string): Promise<string> =>
    until(
      `a certificate for ${name}`,
      async () => {
        const r = await admin(['get', 'csr', name, '-o', 'jsonpath={.status.certificate}']);
        return r.stdout ? Buffer.from(r.stdout, 'base64').toString('utf8') : undefined;
      },
      { timeoutMs: 25_000, intervalMs: 100 }, // 200 kubectl calls 100 ms apart before; the test's own 30 s bound it anyway
    );
  /** A kubeconfig like the admin's, with another user. */
  const kubeconfigFor = async (name: string, user: string[]): Promise<Kubectl> => {
    const file = join(dir, `${name}.kubeconfig`);
    writeFileSync(file, readFileSync(server.kubeconfig));
    const k = kubectlWithConfig(file);
    await ok(k, ['config', 'set-credentials', name, ...user]);
    await ok(k, ['config', 'set-context', name, '--cluster=svc-apiserver', `--user=${name}`, '--namespace=team']);
    await ok(k, ['config', 'use-context', name]);
    return k;
  };

  test('onboarding a user: CSR, approval, the issued certificate in a kubeconfig, authorized by a RoleBinding', async () => {
    const { key, manifest } = request('dave', '/CN=dave/O=dev', 'svc.io/apiserver-client', ['digital signature', 'key encipherment', 'client auth'], '  expirationSeconds: 86400\n');
    expect(await ok(admin, ['create', '-f', manifest])).toBe('certificatesigningrequest.certificates.svc.io/dave created\n');
    expect(await ok(admin, ['get', 'csr', 'dave'])).toMatch(/dave\s+\d+s\s+svc.io\/apiserver-client\s+system:admin\s+24h\s+Pending\n/);
    const approval = '[{"op":"add","path":"/status/conditions","value":[{"type":"Approved","status":"True","reason":"Onboarding","message":"dave joins dev"}]}]';
    expect(await ok(admin, ['patch', 'csr', 'dave', '--subresource=approval', '--type=json', '-p', approval])).toBe('certificatesigningrequest.certificates.svc.io/dave patched\n');
    const pem = await certificateOf('dave');
    expect(await ok(admin, ['get', 'csr', 'dave'])).toMatch(/dave\s+\d+s\s+svc.io\/apiserver-client\s+system:admin\s+24h\s+Approved,Issued\n/);

    const cert = inspectCertificate(pem, caPem);
    expect(cert.opensslVerify.ok).toBe(true);
    expect(cert.subject).toBe('CN=dave\nO=dev');
    expect(cert.subjectAltName).toBeUndefined();
    expect(cert.isCA).toBe(false);
    expect(cert.keyUsage).toEqual(['Digital Signature', 'Key Encipherment']);
    expect(cert.extKeyUsage).toEqual(['1.3.6.1.5.5.7.3.2']);
    expect(cert.notAfter.getTime() - cert.notBefore.getTime()).toBe(24 * 3600_000);
    expect(cert.notBefore.getTime()).toBeLessThan(Date.now() - 4 * 60_000);

    const crt = join(dir, 'dave.crt');
    writeFileSync(crt, pem);
    const dave = await kubeconfigFor('dave', [`--client-certificate=${crt}`, `--client-key=${key}`, '--embed-certs']);
    const whoami = await ok(dave, ['auth', 'whoami']);
    expect(whoami).toMatch(/Username\s+dave\n/);
    expect(whoami).toMatch(/Groups\s+\[dev system:authenticated\]/);
    expect((await dave(['get', 'configmaps'])).stderr).toContain('configmaps is forbidden: User "dave" cannot list resource "configmaps" in API group "" in the namespace "team"');
    await ok(admin, ['create', 'namespace', 'team']);
    await ok(admin, ['create', 'role', 'cm-reader', '-n', 'team', '--verb=get,list,watch', '--resource=configmaps']);
    await ok(admin, ['create', 'rolebinding', 'dave-reads', '-n', 'team', '--role=cm-reader', '--user=dave']);
    await ok(admin, ['create', 'configmap', 'settings', '-n', 'team', '--from-literal=a=b']);
    expect(await ok(dave, ['get', 'configmaps', '-o', 'name'])).toBe('configmap/settings\n');
    expect((await dave(['create', 'configmap', 'mine', '--from-literal=a=b'])).stderr).toContain('configmaps is forbidden: User "dave" cannot create resource "configmaps"');
  });

  test('node bootstrap: a bootstrap token gets a node client certificate with no human step', async () => {
    await ok(admin, ['create', 'clusterrolebinding', 'bootstrap-node-csrs', '--clusterrole=system:node-bootstrapper', '--group=system:bootstrappers']);
    await ok(admin, ['create', 'clusterrolebinding', 'bootstrap-node-approval', '--clusterrole=system:certificates.svc.io:certificatesigningrequests:nodeclient', '--group=system:bootstrappers']);
    const bootstrap = await kubeconfigFor('bootstrap', [`--token=${bootstrapToken}`]);
    const who = await ok(bootstrap, ['auth', 'whoami']);
    expect(who).toMatch(/Username\s+kubelet-bootstrap\n/);
    const { key, manifest } = request('node-worker-1', '/O=system:nodes/CN=system:node:worker-1', 'svc.io/apiserver-client-node', ['digital signature', 'key encipherment', 'client auth']);
    expect(await ok(bootstrap, ['create', '-f', manifest])).toBe('certificatesigningrequest.certificates.svc.io/node-worker-1 created\n');
    const pem = await certificateOf('node-worker-1');
    expect(await ok(admin, ['get', 'csr', 'node-worker-1', '-o', 'jsonpath={.status.conditions[0].reason}: {.status.conditions[0].message}'])).toBe(
      'AutoApproved: Auto approving kubelet client certificate after SubjectAccessReview.',
    );
    expect(await ok(admin, ['get', 'csr', 'node-worker-1'])).toMatch(/node-worker-1\s+\d+s\s+svc.io\/apiserver-client-node\s+kubelet-bootstrap\s+<none>\s+Approved,Issued\n/);
    const cert = inspectCertificate(pem, caPem);
    expect(cert.opensslVerify.ok).toBe(true);
    expect(cert.subject).toBe('O=system:nodes\nCN=system:node:worker-1');
    expect(cert.extKeyUsage).toEqual(['1.3.6.1.5.5.7.3.2']);
    // One year by default (--cluster-signing-duration), the backdate taken off the end.
    expect(cert.notAfter.getTime() - cert.notBefore.getTime()).toBe(365 * 24 * 3600_000);
    const crt = join(dir, 'node.crt');
    writeFileSync(crt, pem);
    const node = await kubeconfigFor('node', [`--client-certificate=${crt}`, `--client-key=${key}`, '--embed-certs']);
    const nodeWho = await ok(node, ['auth', 'whoami']);
    expect(nodeWho).toMatch(/Username\s+system:node:worker-1\n/);
    expect(nodeWho).toMatch(/Groups\s+\[system:nodes system:authenticated\]/);
  });

  test('each built-in signer publishes its CA as a ClusterTrustBundle', async () => {
    const out = await ok(admin, ['get', 'clustertrustbundles', '-o', 'jsonpath={range .items[*]}{.spec.signerName}{"\\n"}{end}']);
    expect(out.split('\n').filter(Boolean).sort()).toEqual(['svc.io/apiserver-client', 'svc.io/apiserver-client-node', 'svc.io/apiserver-client-pod', 'svc.io/node-serving']);
    expect(await ok(admin, ['get', 'clustertrustbundles', '-o', 'jsonpath={.items[0].spec.trustBundle}'])).toBe(caPem);
  });
});
