/**
 * Webhook calls over HTTPS with node's client: the configuration's CA bundle
 * as the only trust roots when it has one, the URL's host checked against
 * the certificate, a keep-alive agent per webhook, a deadline on the whole
 * exchange, and a bound on the answer's size.
 */
import { Agent, request } from 'node:https';
import { WebhookCallError, webhookUrl, type WebhookClientConfig, type WebhookPort } from '../../ports/webhook.port';

/** Answers larger than this are refused (upstream reads at most 3 MiB of a webhook's answer too). */
const maxAnswerBytes = 3 * 1024 * 1024;

export class HttpsWebhookClient implements WebhookPort {
  private readonly agents = new Map<string, Agent>();

  private agentFor(config: WebhookClientConfig): Agent {
    const key = config.caBundle ?? '';
    let agent = this.agents.get(key);
    if (!agent) {
      agent = new Agent({ keepAlive: true, maxSockets: 64, ...(config.caBundle ? { ca: config.caBundle } : {}) });
      this.agents.set(key, agent);
    }
    return agent;
  }

  post(config: WebhookClientConfig, body: unknown, timeoutMs: number): Promise<unknown> {
    return new Promise((resolve, reject) => {
      let url: URL;
      try {
        url = new URL(webhookUrl(config));
      } catch (e) {
        return reject(e instanceof WebhookCallError ? e : new WebhookCallError('unreachable', `invalid webhook URL: ${(e as Error).message}`));
      }
      const payload = Buffer.from(JSON.stringify(body));
      let settled = false;
      const fail = (e: WebhookCallError) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        req.destroy();
        reject(e);
      };
      const req = request(
        url,
        { method: 'POST', agent: this.agentFor(config), headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'Content-Length': payload.length } },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (c: Buffer) => {
            size += c.length;
            if (size > maxAnswerBytes) fail(new WebhookCallError('decode', `the answer is larger than ${maxAnswerBytes} bytes`));
            else chunks.push(c);
          });
          res.on('end', () => {
            if (settled) return;
            const text = Buffer.concat(chunks).toString('utf8');
            const code = res.statusCode ?? 0;
            if (code < 200 || code >= 300) return fail(new WebhookCallError('status', `the server responded with the status code ${code} but did not return more information`, code));
            try {
              settled = true;
              clearTimeout(timer);
              resolve(JSON.parse(text));
            } catch (e) {
              reject(new WebhookCallError('decode', `the answer is not JSON: ${(e as Error).message}`));
            }
          });
          res.on('error', (e) => fail(new WebhookCallError('unreachable', e.message)));
        },
      );
      const timer = setTimeout(() => fail(new WebhookCallError('timeout', `context deadline exceeded`)), timeoutMs);
      req.on('error', (e) => fail(new WebhookCallError('unreachable', e.message)));
      req.end(payload);
    });
  }

  close(): void {
    for (const a of this.agents.values()) a.destroy();
    this.agents.clear();
  }
}
