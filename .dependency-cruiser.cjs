/** The dependency direction of DESIGN.md, enforced in `npm run lint` (and so in CI). */
module.exports = {
  forbidden: [
    {
      name: 'machinery-is-pure',
      comment: 'machinery/ imports nothing of ours but itself and ports/ types',
      severity: 'error',
      from: { path: '^src/machinery/' },
      to: { path: '^src/(registry|resources|adapters|config|main)' },
    },
    {
      name: 'registry-knows-no-kind',
      comment: 'the generic registry never imports a resource, an adapter or config',
      severity: 'error',
      from: { path: '^src/registry/' },
      to: { path: '^src/(resources|adapters|config|main)' },
    },
    {
      name: 'resources-are-domain',
      comment: 'resources import machinery/ and ports/ only',
      severity: 'error',
      from: { path: '^src/resources/' },
      to: { path: '^src/(registry|adapters|config|main)' },
    },
    {
      name: 'auth-is-domain',
      comment: 'auth/ (authentication, authorization, audit, reviews) imports machinery, ports and the registry; never adapters or config',
      severity: 'error',
      from: { path: '^src/auth/' },
      to: { path: '^src/(resources|adapters|config|main|security)' },
    },
    {
      name: 'domain-knows-no-auth',
      comment: 'machinery, registry and resources ask permission questions through ports/authorizer.port.ts only',
      severity: 'error',
      from: { path: '^src/(machinery|registry|resources|ports)/' },
      to: { path: '^src/auth/' },
    },
    {
      name: 'ports-are-interfaces',
      severity: 'error',
      from: { path: '^src/ports/' },
      to: { path: '^src/(registry|resources|adapters|config|main|auth)' },
    },
    {
      name: 'adapters-do-not-wire-each-other',
      comment: 'an adapter imports ports and domain, never another adapter (only main.ts wires them)',
      severity: 'error',
      from: { path: '^src/adapters/([^/]+)/' },
      to: { path: '^src/adapters/', pathNot: '^src/adapters/$1/' },
    },
    {
      name: 'only-main-wires-adapters',
      severity: 'error',
      comment: 'the composition root is main.ts and security.ts (the identity-and-access part of it)',
      from: { path: '^src/', pathNot: ['^src/main\\.ts$', '^src/security\\.ts$', '^src/adapters/'] },
      to: { path: '^src/adapters/' },
    },
    {
      name: 'domain-knows-no-infrastructure',
      comment: 'no Express, etcd or lmdb below the adapters',
      severity: 'error',
      from: { path: '^src/(machinery|registry|resources|ports|auth)/' },
      to: { path: 'node_modules/(express|etcd3|lmdb|@grpc|protobufjs|jose)/' },
    },
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.build.json' },
    tsPreCompilationDeps: true,
  },
};
