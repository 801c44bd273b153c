/**
 * A stream handler that throws while the session reads a chunk: the rest of that chunk (and with it the HPACK
 * table's state) is lost, so the session ends with it instead of reading on out of step; the exception still
 * reaches the process. Run in a child process (the built session from dist/), since the exception escapes the
 * socket's callback and would otherwise end up in the test runner.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

const session = resolve(__dirname, '../../../dist/adapters/etcd/http2/session.js');
const hpack = resolve(__dirname, '../../../dist/adapters/etcd/http2/hpack.js');

const script = `
const http2 = require('node:http2');
const { H2Session } = require(${JSON.stringify(session)});
const { encodeHeaderBlock } = require(${JSON.stringify(hpack)});
const server = http2.createServer();
let goaway;
server.on('session', (s) => s.on('goaway', (code) => (goaway = code)));
server.on('stream', (stream) => {
  stream.on('error', () => undefined);
  stream.respond({ ':status': 200 });
  stream.write('first');
});
server.listen(0, '127.0.0.1', () => {
  const url = 'http://127.0.0.1:' + server.address().port;
  const s = new H2Session(url, { windowBytes: 65535, onGone: () => undefined });
  let closed;
  process.on('uncaughtException', (err) => {
    setTimeout(() => {
      console.log(JSON.stringify({ error: err.message, destroyed: s.destroyed, closed, goaway }));
      server.close();
      process.exit(0);
    }, 200);
  });
  const block = encodeHeaderBlock([[':method', 'POST'], [':scheme', 'http'], [':path', '/x'], [':authority', 'etcd']]);
  s.request(block, {
    onHeaders: () => undefined,
    onData: () => { throw new Error('handler failed'); },
    onClose: (failure) => (closed = failure ? failure.message : 'clean'),
  }).write(Buffer.from('x'), false);
});
setTimeout(() => { console.log(JSON.stringify({ error: 'nothing thrown' })); process.exit(1); }, 5000).unref();
`;

test('a throwing stream handler ends the session (every stream fails, GOAWAY INTERNAL_ERROR) and still throws', () => {
  if (!existsSync(session)) throw new Error(`${session} is missing: run \`npm run build\` (npm test does it first)`);
  const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 10_000 });
  const report = JSON.parse(run.stdout.trim().split('\n').pop()!);
  expect(report.error).toBe('handler failed');
  expect(report.destroyed).toBe(true);
  expect(report.closed).toMatch(/reading from .* failed: handler failed/);
  expect(report.goaway).toBe(2); // INTERNAL_ERROR
});
