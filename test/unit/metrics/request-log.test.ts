/** Slow requests are logged at info even when debug lines are off; fast ones are not. */
import express from 'express';
import type { AddressInfo } from 'node:net';
import { createMetrics, metricsMiddleware } from '../../../src/adapters/metrics';
import { requestInfo } from '../../../src/auth/request-info';

test('only requests slower than the threshold reach info', async () => {
  const lines: Array<{ level: string; msg: string; extra?: any }> = [];
  const log = Object.assign((level: string, msg: string, extra?: object) => lines.push({ level, msg, extra }), {
    enabled: (level: string) => level !== 'debug',
  });
  const app = express();
  app.use(metricsMiddleware(createMetrics(async () => []), log, (req) => requestInfo(req.method, req.url), 0.2));
  app.get('/api/v1/namespaces/default/configmaps/fast', (_req, res) => res.end('{}'));
  app.get('/api/v1/namespaces/default/configmaps/slow', (_req, res) => void setTimeout(() => res.end('{}'), 300));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/namespaces/default/configmaps`;
  try {
    await (await fetch(`${url}/fast`)).text();
    await (await fetch(`${url}/slow`)).text();
  } finally {
    server.close();
  }
  expect(lines.map((l) => [l.level, l.msg, l.extra.path])).toEqual([['info', 'slow request', '/api/v1/namespaces/default/configmaps/slow']]);
});
