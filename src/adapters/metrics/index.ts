export { createMetrics, watchEventsChannel, type ApiMetrics } from './metrics';
export { instrumentStorage } from './instrumented-storage';
export { metricsMiddleware, metricsRouter, requestLabels } from './http-metrics';
