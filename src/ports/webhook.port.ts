/**
 * Calls to webhooks the users configure (admission webhooks, CRD conversion
 * webhooks): one JSON review posted over HTTPS, one JSON answer, within a
 * deadline. Never called while a storage transaction is open.
 */

/** Where a webhook is: a URL (the normal form here), or a Service the URL is made from. */
export interface WebhookClientConfig {
  url?: string;
  service?: { namespace: string; name: string; path?: string; port?: number };
  /** PEM certificates the webhook's serving certificate must chain to; without it, the system's roots. */
  caBundle?: string;
}

export type WebhookFailure = 'timeout' | 'unreachable' | 'status' | 'decode';

/** Why a call gave no answer: the caller turns it into upstream's error, or ignores it per its failure policy. */
export class WebhookCallError extends Error {
  constructor(
    readonly failure: WebhookFailure,
    message: string,
    /** The HTTP status, when the webhook answered with an error status. */
    readonly code?: number,
  ) {
    super(message);
  }
}

export interface WebhookPort {
  /** POSTs `body` as JSON and resolves with the parsed JSON answer; rejects with WebhookCallError. */
  post(config: WebhookClientConfig, body: unknown, timeoutMs: number): Promise<unknown>;
}

/** The URL a config names: its url, or `https://<name>.<namespace>.svc:<port><path>` for a Service (port 443 by default). */
export function webhookUrl(config: WebhookClientConfig): string {
  if (config.url) return config.url;
  const s = config.service;
  if (!s) throw new WebhookCallError('unreachable', 'webhook has no url and no service');
  return `https://${s.name}.${s.namespace}.svc:${s.port ?? 443}${s.path ?? ''}`;
}

/** Go's wording for the transport failures Node names differently. */
const goWording: Array<[RegExp, string]> = [
  [/^connect ECONNREFUSED (.+)$/, 'dial tcp $1: connect: connection refused'],
  [/^getaddrinfo (?:ENOTFOUND|EAI_AGAIN) (.+)$/, 'dial tcp: lookup $1: no such host'],
  [/^(?:self[- ]signed certificate.*|unable to verify the first certificate|unable to get local issuer certificate)$/, 'tls: failed to verify certificate: x509: certificate signed by unknown authority'],
  [/^certificate has expired$/, 'tls: failed to verify certificate: x509: certificate has expired or is not yet valid'],
  [/^socket hang up$/, 'EOF'],
  [/^read ECONNRESET$/, 'read: connection reset by peer'],
];

/** A transport failure's message as Go's net/http words it (upstream's errors quote those). */
export function goTransportReason(message: string): string {
  for (const [re, text] of goWording) if (re.test(message)) return message.replace(re, text);
  return message;
}

/** Go's Duration text for whole seconds (`10s`, `1m0s`). */
export function goSeconds(s: number): string {
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m}m${s % 60}s` : `${Math.floor(m / 60)}h${m % 60}m${s % 60}s`;
}
