/** SIGTERM: readiness fails, open watches end cleanly, in-flight work finishes, the process exits 0. */
import { startServerProcess } from '../support/server-process';

test('graceful shutdown on SIGTERM ends watches and exits 0', async () => {
  const server = await startServerProcess();
  const res = await fetch(`${server.url}/api/v1/namespaces/default/configmaps?watch=true`);
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const ended = (async () => {
    for (;;) {
      const { done } = await reader.read();
      if (done) return 'ended';
    }
  })().catch(() => 'reset');
  const exit = server.stop('SIGTERM');
  await expect(ended).resolves.toBe('ended');
  await expect(exit).resolves.toBe(0);
  expect(server.logs()).toContain('"msg":"shutting down"');
});
