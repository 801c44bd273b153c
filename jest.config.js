/** Storage-backed suites share one etcd started in globalSetup; see test/support/etcd-harness.ts. */
module.exports = {
  preset: 'ts-jest',
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  setupFiles: ['reflect-metadata'],
  maxWorkers: 2,
  testTimeout: 30000,
  transform: { '^.+\\.ts$': ['ts-jest', {}] },
};
