#!/usr/bin/env node
// Builds dist/ (npm run build) only when it is missing or older than the sources: `npm start` and `npm ci`
// (its prepare step) call it, so a start does not compile every time. The marker is dist/build-info.json, which
// the build writes after the compiler succeeds. Without src/ (the image's dependency layer) there is nothing to do.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const src = path.join(root, 'src');
const marker = path.join(root, 'dist', 'build-info.json');

/** The newest modification time under `dir`, directories included (a deleted file changes its directory). */
function newest(dir) {
  let latest = fs.statSync(dir).mtimeMs;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : fs.statSync(full).mtimeMs);
  }
  return latest;
}

if (!fs.existsSync(src)) process.exit(0);
const inputs = Math.max(newest(src), ...['tsconfig.json', 'tsconfig.build.json', 'package.json'].map((f) => fs.statSync(path.join(root, f)).mtimeMs));
const built = fs.existsSync(marker) && fs.existsSync(path.join(root, 'dist', 'main.js')) ? fs.statSync(marker).mtimeMs : 0;
if (built > inputs) process.exit(0);
process.stderr.write(built ? 'svc-apiserver: the sources changed since the last build: building dist/ (npm run build)\n' : 'svc-apiserver: building dist/ (npm run build)\n');
const r = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
process.exit(r.status ?? 1);
