export { createApp } from './server';
export type { AppDeps } from './server';
export type { HealthCheck, HealthChecks } from './health';
