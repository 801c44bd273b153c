/**
 * The production wiring over HTTPS in-process, with a real generated PKI:
 * client certificates issued by the cluster CA, tokens signed by the real
 * JWT adapter. For authentication and authorization tests on both backends.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPrivateKey, randomUUID } from 'node:crypto';
import { request } from 'node:https';
import type { AddressInfo } from 'node:net';
import { assemble, type Assembled, type AssembleOptions } from '../../src/composition/assemble';
import { FeatureGates } from '../../src/machinery/feature-gates';
import { ensurePki, issueLeaf, type EnsuredPki } from '../../src/adapters/pki';
import { JoseTokenAdapter } from '../../src/adapters/jwt';
import type { SecurityOptions } from '../../src/composition/security';
import type { StoragePort } from '../../src/ports/storage.port';
import { Backend, openStorage } from './test-server';

export interface Credentials {
  cert?: string;
  key?: string;
  token?: string;
  headers?: Record<string, string | string[]>;
}

export interface HttpsResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

export interface SecureTestServer {
  url: string;
  plainUrl: string;
  pki: EnsuredPki;
  assembled: Assembled;
  /** A client certificate from the cluster CA for `user` in `groups`. */
  clientCert(user: string, groups?: string[]): Promise<Credentials>;
  call(method: string, path: string, creds: Credentials, body?: unknown, contentType?: string): Promise<HttpsResponse>;
  close(): Promise<void>;
}

export interface SecureServerExtras {
  /** Controller options built once the PKI exists (e.g. signing with its CA). */
  controllers?: (pki: EnsuredPki) => AssembleOptions['controllers'];
  /** Wraps the storage the server gets (to count its calls, say). */
  storage?: (storage: StoragePort) => StoragePort;
}

export async function startSecureTestServer(backend: Backend, security: Partial<SecurityOptions> = {}, extras: SecureServerExtras = {}): Promise<SecureTestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-pki-'));
  const pki = await ensurePki(dir, '127.0.0.1', new Date());
  const opened = openStorage(backend);
  const { cleanup } = opened;
  const storage = extras.storage ? extras.storage(opened.storage) : opened.storage;
  const tokens = new JoseTokenAdapter(createPrivateKey(readFileSync(pki.paths.saKey, 'utf8')), []);
  const assembled = assemble({
    storage,
    gates: new FeatureGates({}),
    log: () => undefined,
    security: { tokens, newId: randomUUID, ...security },
    tls: { cert: pki.serving.certPem, key: pki.serving.keyPem, clientCa: pki.ca.certPem },
    controllers: extras.controllers?.(pki),
  });
  await new Promise<void>((resolve) => assembled.secureServer!.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => assembled.server.listen(0, '127.0.0.1', resolve));
  await assembled.bootstrapped;
  const url = `https://127.0.0.1:${(assembled.secureServer!.address() as AddressInfo).port}`;
  const plainUrl = `http://127.0.0.1:${(assembled.server.address() as AddressInfo).port}`;
  const call = (method: string, path: string, creds: Credentials, body?: unknown, contentType = 'application/json') =>
    new Promise<HttpsResponse>((resolve, reject) => {
      const headers: Record<string, string | string[]> = { Accept: 'application/json', ...(creds.headers ?? {}) };
      if (creds.token !== undefined) headers.Authorization = `Bearer ${creds.token}`;
      const payload = body === undefined ? undefined : typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
      if (payload !== undefined) headers['Content-Type'] = contentType;
      const req = request(`${url}${path}`, { method, headers, ca: pki.ca.certPem, cert: creds.cert, key: creds.key }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () => {
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      });
      req.on('error', reject);
      req.end(payload);
    });
  return {
    url,
    plainUrl,
    pki,
    assembled,
    async clientCert(user, groups = []) {
      const leaf = await issueLeaf(pki.ca, { commonName: user, organizations: groups, usage: 'client', days: 1 }, new Date());
      return { cert: leaf.certPem, key: leaf.keyPem };
    },
    call,
    async close() {
      assembled.server.closeAllConnections();
      assembled.secureServer!.closeAllConnections();
      await assembled.shutdown();
      cleanup();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
