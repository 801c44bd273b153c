// `node scripts/bench/etcd-client.mjs` (after `npm run build`): the same create transaction, 16 at a time for 4 s,
// through the etcd3 client and through the server's own etcd transport (dist/adapters/etcd), against an etcd of its
// own: transactions per second and this process's CPU per transaction.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { closedLoop } from './load.mjs';
import { startEtcd, stopAll } from './procs.mjs';
import { cmBody } from './report.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(join(root, 'package.json'));
const { Etcd3 } = require('etcd3');
const { EtcdKv } = require(join(root, 'dist/adapters/etcd/etcd-kv.js'));
const { GrpcClient } = require(join(root, 'dist/adapters/etcd/grpc-client.js'));

const etcd = await startEtcd();
const value = Buffer.from(cmBody('x', { k: 'v'.repeat(100) }));
const txn = (key) => ({ compare: [{ key, target: 'Create', result: 'Equal', create_revision: 0 }], success: [{ request_put: { key, value } }], failure: [{ request_range: { key } }] });
const library = new Etcd3({ hosts: etcd.endpoint, grpcOptions: { 'grpc.enable_channelz': 0 } });
const grpc = new GrpcClient([etcd.endpoint]);
const own = new EtcdKv(grpc, 10_000);
const clients = {
  etcd3: (key) => library.kv.txn(txn(key), { deadline: Date.now() + 10_000 }),
  'the server (own HTTP/2)': (key) => own.txn(txn(key)),
};
try {
  for (const round of [1, 2]) {
    for (const [name, call] of Object.entries(clients)) {
      const run = (ms) => closedLoop(16, ms, (i) => call(Buffer.from(`/etcd-client/${round}/${name}/${i}/${ms}`)));
      await run(1000);
      const before = process.cpuUsage();
      const r = await run(4000);
      const cpu = process.cpuUsage(before);
      if (round === 2) console.log(`${name.padEnd(24)} ${r.opsPerSec.toFixed(0).padStart(6)} txn/s  ${((cpu.user + cpu.system) / r.count).toFixed(0).padStart(4)} µs CPU/txn  p50 ${r.p50.toFixed(2)} ms  ${r.errors} errors`);
    }
  }
} finally {
  library.close();
  grpc.close();
  await stopAll();
}
