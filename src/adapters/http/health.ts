/**
 * /healthz, /livez and /readyz with named checks, as upstream: `ok`, a
 * verbose listing, `?exclude=`, and single checks at /readyz/<name>.
 */
import { Router, Request, Response } from 'express';

export interface HealthCheck {
  name: string;
  check(): Promise<boolean> | boolean;
}

export interface HealthChecks {
  livez: HealthCheck[];
  readyz: HealthCheck[];
}

async function run(req: Request, res: Response, endpoint: string, checks: HealthCheck[]): Promise<void> {
  const exclude = new Set([req.query.exclude ?? []].flat().map(String));
  const lines: string[] = [];
  let failed = false;
  for (const c of checks) {
    if (exclude.has(c.name)) {
      lines.push(`[+]${c.name} excluded: ok`);
      exclude.delete(c.name);
      continue;
    }
    let ok = false;
    try {
      ok = await c.check();
    } catch {
      ok = false;
    }
    if (!ok) failed = true;
    lines.push(ok ? `[+]${c.name} ok` : `[-]${c.name} failed: reason withheld`);
  }
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
