export { createApp, withAppPrototypes } from './server';
export type { AppDeps } from './server';
export type { HealthCheck, HealthChecks } from './health';
export { requestInfoOf } from './request-info';
