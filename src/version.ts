/** /version: this server's version, shaped like upstream's version.Info; commit and date come from the build. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { arch, platform } from 'node:process';

interface BuildInfo {
  gitCommit: string;
  gitTreeState: string;
  buildDate: string;
}

/** dist/build-info.json, written by scripts/build-info.cjs after the compiler; absent when run from sources. */
function buildInfo(): BuildInfo {
  try {
    return JSON.parse(readFileSync(join(__dirname, 'build-info.json'), 'utf8')) as BuildInfo;
  } catch {
    return { gitCommit: 'unknown', gitTreeState: '', buildDate: 'unknown' };
  }
}

const build = buildInfo();

export const version = {
  major: '1',
  minor: '37',
  gitVersion: 'v1.37.0-svc.0.1.0',
  gitCommit: build.gitCommit,
  gitTreeState: build.gitTreeState,
  buildDate: build.buildDate,
  goVersion: `node${process.versions.node}`,
  compiler: 'tsc',
  platform: `${platform}/${arch === 'x64' ? 'amd64' : arch}`,
};
