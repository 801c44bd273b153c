/**
 * Replicas on one etcd prefix share one cluster CA: a second server with the
 * same PKI starts and accepts the first one's credentials; one with another
 * CA refuses to start and says which files to copy.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { adminHttpsStatus, distMain, startServerProcess } from '../support/server-process';
import { etcdEndpoints } from '../support/test-server';

describe('replicas on one etcd prefix', () => {
  const prefix = `/secure-${randomBytes(4).toString('hex')}`;
  const etcdArgs = ['--etcd-servers', etcdEndpoints().join(','), '--etcd-prefix', prefix];
  const dirs: string[] = [];
  const dir = () => {
    const d = mkdtempSync(join(tmpdir(), 'svc-replica-'));
    dirs.push(d);
    return d;
  };
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('share the first one’s CA, and a replica with another CA refuses to start', async () => {
    const pkiA = dir();
    const a = await startServerProcess([...etcdArgs, '--cert-dir', pkiA]);
    try {
      // Same PKI files: starts, and the first one's admin credentials work on it.
      const pkiB = dir();
      cpSync(pkiA, pkiB, { recursive: true });
      const b = await startServerProcess([...etcdArgs, '--cert-dir', pkiB]);
      try {
        expect(await adminHttpsStatus(a.kubeconfig, `${b.secureUrl}/api/v1/namespaces/default/configmaps`)).toBe(200);
      } finally {
        await b.stop();
      }
      // A fresh PKI directory means a new CA: refused with a message naming the files.
      const pkiC = dir();
      const c = spawnSync(process.execPath, [distMain, ...etcdArgs, '--cert-dir', pkiC, '--data-dir', dir(), '--secure-port', '0'], { encoding: 'utf8', timeout: 30_000 });
      expect(c.status).not.toBe(0);
      expect(c.stderr).toContain(`is not the one the other servers on etcd prefix ${prefix} at `);
      expect(c.stderr).toContain(`copy ca.crt, ca.key, sa.key and sa.pub`);
      expect(c.stderr).toContain(pkiC);
    } finally {
      await a.stop();
    }
  });
});
