/**
 * A real HTTPS admission webhook server for tests: its own CA and a serving
 * certificate for 127.0.0.1 (the project's PKI adapter), listening on a free
 * port, answering AdmissionReviews per path with the test's handlers, and
 * remembering every review it got. A handler may leave the call hanging
 * (a slow webhook); close() ends such calls with the server.
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { issueLeaf, selfSignedCa } from '../../src/adapters/pki';

export interface Review {
  apiVersion: string;
  kind: string;
  request: Record<string, any>;
}

/** An answer to send, or `hang` to never answer. */
export type WebhookHandler = (review: Review) => unknown;
export const hang = Symbol('hang');

export interface WebhookServer {
  /** `https://127.0.0.1:<port><path>` */
  url(path: string): string;
  /** The CA bundle to put in a clientConfig (base64 of the PEM, as the API carries it). */
  caBundle: string;
  reviews: Array<{ path: string; review: Review }>;
  close(): Promise<void>;
}

export async function startWebhookServer(handlers: Record<string, WebhookHandler>): Promise<WebhookServer> {
  const now = new Date();
  const ca = await selfSignedCa('webhook-test-ca', now);
  const serving = await issueLeaf(ca, { commonName: 'webhook', ipAddresses: ['127.0.0.1'], usage: 'server', days: 1 }, now);
  const reviews: WebhookServer['reviews'] = [];
  const server: Server = createServer({ key: serving.keyPem, cert: serving.certPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'https://webhook').pathname;
      const handler = handlers[path];
      if (!handler) {
        res.writeHead(404).end();
        return;
      }
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Review;
      reviews.push({ path, review });
      const answer = handler(review);
      if (answer === hang) return;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path) => `https://127.0.0.1:${port}${path}`,
    caBundle: Buffer.from(ca.certPem).toString('base64'),
    reviews,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The v1 answer to `review`: allowed unless `response` says otherwise. */
export function answer(review: Review, response: Record<string, unknown> = {}): unknown {
  return { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: review.request.uid, allowed: true, ...response } };
}

/** A port on 127.0.0.1 that nothing listens on (taken, then given back). */
export async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
