#!/usr/bin/env node
// The container's HEALTHCHECK: exits 0 when the server's /readyz answers 200 over HTTPS, 1 otherwise.
// Like Kubernetes' HTTPS probes it sends no credentials (anonymous may read /readyz) and does not verify the
// serving certificate: it asks the local process whether it is ready, it does not authenticate it.
// Usage: node scripts/healthcheck.cjs [URL]   (default https://127.0.0.1:6443/readyz)
'use strict';
const https = require('node:https');

const url = process.argv[2] ?? 'https://127.0.0.1:6443/readyz';
const req = https.get(url, { rejectUnauthorized: false, agent: false, timeout: 4000 }, (res) => {
  let body = '';
  res.setEncoding('utf8');
  res.on('data', (d) => (body += d));
  res.on('end', () => {
    if (res.statusCode === 200) process.exit(0);
    console.error(`${url}: ${res.statusCode} ${body.trim().slice(0, 500)}`);
    process.exit(1);
  });
});
req.on('timeout', () => req.destroy(new Error('no answer within 4 s')));
req.on('error', (e) => {
  console.error(`${url}: ${e.message}`);
  process.exit(1);
});
