#!/usr/bin/env node
// Writes dist/build-info.json after the compiler: the commit and tree state of the checkout, and the build's time,
// for /version and --version. Outside git (an image built from a context without .git) the commit comes from
// SVC_GIT_COMMIT when set (the Dockerfile's build argument), else it is "unknown".
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const git = (...args) => {
  const r = spawnSync('git', args, { cwd: root, encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
};

const fromGit = git('rev-parse', 'HEAD');
const commit = process.env.SVC_GIT_COMMIT || fromGit || 'unknown';
const dirty = fromGit ? git('status', '--porcelain', '--untracked-files=no') : undefined;
const info = {
  gitCommit: commit,
  gitTreeState: dirty === undefined ? (commit === 'unknown' ? '' : 'clean') : dirty ? 'dirty' : 'clean',
  // Go's format, as upstream's buildDate: seconds, UTC.
  buildDate: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
};
fs.mkdirSync(path.join(root, 'dist'), { recursive: true });
fs.writeFileSync(path.join(root, 'dist', 'build-info.json'), `${JSON.stringify(info, null, 2)}\n`);
