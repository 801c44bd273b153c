/** /version: this server's version, shaped like upstream's version.Info. */
import { arch, platform } from 'node:process';

export const version = {
  major: '1',
  minor: '37',
  gitVersion: 'v1.37.0-svc.0.1.0',
  gitCommit: process.env.SVC_GIT_COMMIT ?? 'unknown',
  gitTreeState: 'clean',
  buildDate: process.env.SVC_BUILD_DATE ?? '1970-01-01T00:00:00Z',
  goVersion: `node${process.versions.node}`,
  compiler: 'tsc',
  platform: `${platform}/${arch === 'x64' ? 'amd64' : arch}`,
};
