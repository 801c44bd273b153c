// The thinnest create server this design allows, for the benchmark's ceiling rows: node:http reads the body and
// writes it to etcd in one create transaction through the server's own transport (dist/adapters/etcd), then answers
// 201 with the same bytes. No decoding, validation, admission, managed fields, watch cache or Express: what is left
// is the cost of the HTTP hop and of the etcd call, which any server built on these parts pays.
// `node thin-proxy.cjs <dist dir> <etcd endpoint> <port>`; GET /cpu answers its own process.cpuUsage() (the benchmark waits on it; it reads the CPU time from /proc).
const http = require('node:http');
const { join } = require('node:path');
const [dist, endpoint, port] = process.argv.slice(2);
const { EtcdKv } = require(join(dist, 'adapters/etcd/etcd-kv.js'));
const { GrpcClient } = require(join(dist, 'adapters/etcd/grpc-client.js'));

const grpc = new GrpcClient([endpoint]);
const kv = new EtcdKv(grpc, 10_000);
let next = 0;
http.createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/cpu') {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(process.cpuUsage()));
    return;
  }
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const value = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
    const key = Buffer.from(`/thin-proxy/${process.pid}/${next++}`);
    const txn = { compare: [{ key, target: 'Create', result: 'Equal', create_revision: 0 }], success: [{ request_put: { key, value } }], failure: [{ request_range: { key } }] };
    kv.txn(txn).then(
      (r) => {
        res.writeHead(r.succeeded ? 201 : 409, { 'Content-Type': 'application/json' });
        res.end(value);
      },
      (err) => {
        res.writeHead(500, { 'Content-Type': 'text/plain' });
        res.end(String(err));
      },
    );
  });
}).listen(Number(port), '127.0.0.1');
process.on('SIGTERM', () => {
  grpc.close();
  process.exit(0);
});
