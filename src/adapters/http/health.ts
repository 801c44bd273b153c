/**
 * /healthz, /livez and /readyz with named checks, as upstream: `ok`, a
 * verbose listing, `?exclude=`, and single checks at /readyz/<name>.
 */
import { Router, Request, Response } from 'express';

export interface HealthCheck {
  name: string;
  /** False or a throw fails the check; the message of an Error thrown is shown as the reason (e.g. why etcd is unreachable). */
  check(): Promise<boolean> | boolean;
  /** A check that has not answered after this long has failed (upstream's --etcd-*check-timeout). */
  timeoutMs?: number;
}

/** Runs one check, bounded by its timeout; a throw or a late answer is a failure. */
async function passes(c: HealthCheck): Promise<true | string> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    if (c.timeoutMs !== undefined) timer = setTimeout(() => resolve(false), c.timeoutMs);
  });
  try {
    return (await Promise.race([Promise.resolve().then(() => c.check()), late])) || 'reason withheld';
  } catch (e) {
    return e instanceof Error && e.message ? e.message : 'reason withheld';
  } finally {
    clearTimeout(timer);
  }
}

export interface HealthChecks {
  livez: HealthCheck[];
  readyz: HealthCheck[];
}

async function run(req: Request, res: Response, endpoint: string, checks: HealthCheck[]): Promise<void> {
  const exclude = new Set([req.query.exclude ?? []].flat().map(String));
  const excluded = new Set(checks.filter((c) => exclude.has(c.name)).map((c) => c.name));
  // Checks run side by side, so the answer takes as long as the slowest one's timeout, not their sum.
  const results = await Promise.all(checks.map((c) => (excluded.has(c.name) ? true : passes(c))));
  const lines: string[] = [];
  let failed = false;
  checks.forEach((c, i) => {
    if (excluded.has(c.name)) {
      lines.push(`[+]${c.name} excluded: ok`);
      exclude.delete(c.name);
      return;
    }
    const result = results[i];
    if (result !== true) failed = true;
    lines.push(result === true ? `[+]${c.name} ok` : `[-]${c.name} failed: ${result}`);
  });
  if (exclude.size) lines.push(`warn: some health checks cannot be excluded: no matches for ${[...exclude].map((e) => `"${e}"`).join(',')}`);
  const verbose = req.query.verbose !== undefined;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  if (failed) {
    res.status(500).end(`${lines.join('\n')}\n${endpoint} check failed\n`);
  } else if (verbose) {
    res.status(200).end(`${lines.join('\n')}\n${endpoint} check passed\n`);
  } else res.status(200).end('ok');
}

export function healthRouter(checks: HealthChecks): Router {
  const router = Router();
  const endpoints: Array<[string, HealthCheck[]]> = [
    ['healthz', checks.readyz],
    ['livez', checks.livez],
    ['readyz', checks.readyz],
  ];
  for (const [endpoint, list] of endpoints) {
    router.get(`/${endpoint}`, (req, res) => void run(req, res, endpoint, list));
    for (const c of list) router.get(`/${endpoint}/${c.name}`, (req, res) => void run(req, res, endpoint, [c]));
  }
  return router;
}
