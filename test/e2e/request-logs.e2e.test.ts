/**
 * Request logs follow the log level as kube-apiserver's verbosity does: at
 * the default level ordinary requests write nothing; at debug each request
 * is one line.
 */
import { startServerProcess } from '../support/server-process';

async function someRequests(url: string): Promise<void> {
  for (let i = 0; i < 5; i++) {
    await (await fetch(`${url}/api/v1/namespaces/default/configmaps`)).text();
    await (await fetch(`${url}/api/v1/namespaces/default/configmaps/missing`)).text();
  }
}

const requestLines = (logs: string) => logs.split('\n').filter((l) => /"msg":"(slow )?request"/.test(l));

test('at the default level ordinary requests are not logged', async () => {
  const server = await startServerProcess();
  try {
    await someRequests(server.url);
    expect(requestLines(server.logs())).toEqual([]);
  } finally {
    await server.stop();
  }
});

test('at --log-level debug every request is one JSON line', async () => {
  const server = await startServerProcess(['--log-level', 'debug']);
  try {
    await someRequests(server.url);
    const lines = requestLines(server.logs()).map((l) => JSON.parse(l));
    expect(lines.length).toBeGreaterThanOrEqual(10);
    expect(lines.find((l) => l.status === 404)).toMatchObject({ level: 'debug', msg: 'request', method: 'GET', path: '/api/v1/namespaces/default/configmaps/missing' });
  } finally {
    await server.stop();
  }
});
