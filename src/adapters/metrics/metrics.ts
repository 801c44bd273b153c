/**
 * Prometheus metrics under upstream's names, so existing dashboards work:
 * request counts and latencies per verb/group/version/resource, in-flight and
 * long-running requests, storage objects and latency, watch events, plus
 * prom-client's process and event-loop metrics.
 */
import { subscribe } from 'node:diagnostics_channel';
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { FastCounter, FastGauge, FastHistogram } from './series';

export const watchEventsChannel = 'svc.watch.events';

export interface ApiMetrics {
  registry: Registry;
  // Updated on every request or storage call: bound once per label set, plain numbers after that.
  requests: FastCounter;
  duration: FastHistogram;
  inflight: FastGauge;
  longrunning: FastGauge;
  storageObjects: Gauge<string>;
  etcdDuration: FastHistogram;
  watchEvents: Counter<string>;
  /** Upstream's audit counters, fed by the buffered audit backend. */
  audit: { event(): void; error(plugin: string, count: number): void };
  /** The heap trimmer's full collections and the time they stopped the event loop. */
  heapTrim(seconds: number): void;
}

const latencyBuckets = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];
const requestLabels = ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component'];

export function createMetrics(countObjects: () => Promise<Array<{ resource: string; count: number }>>): ApiMetrics {
  const registry = new Registry();
  // Node's own metrics. The event loop's delay is sampled every 100 ms, not prom-client's 10: its timer woke an idle
  // server 100 times a second, about half of what an idle server spent (18 ms of CPU a second on etcd, 9 embedded).
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 100 });
  const watchEvents = new Counter({ name: 'apiserver_watch_events_total', help: 'Number of events sent in watch clients', labelNames: ['group', 'version', 'kind'], registers: [registry] });
  subscribe(watchEventsChannel, (msg) => {
    const m = msg as { group: string; version: string; kind: string; count: number };
    watchEvents.inc({ group: m.group, version: m.version, kind: m.kind }, m.count);
  });
  const auditEvents = new Counter({ name: 'apiserver_audit_event_total', help: 'Counter of audit events generated and sent to the audit backend.', registers: [registry] });
  const auditErrors = new Counter({ name: 'apiserver_audit_error_total', help: 'Counter of audit events that failed to be audited properly. Plugin identifies the plugin affected by the error.', labelNames: ['plugin'], registers: [registry] });
  const heapTrims = new Counter({ name: 'svc_heap_trims_total', help: 'Full garbage collections run in a quiet second after a burst of large request bodies, and six quiet seconds later.', registers: [registry] });
  const heapTrimSeconds = new Counter({ name: 'svc_heap_trim_seconds_total', help: 'Time those collections stopped the event loop.', registers: [registry] });
  return {
    registry,
    audit: { event: () => auditEvents.inc(), error: (plugin, count) => auditErrors.inc({ plugin }, count) },
    heapTrim: (seconds) => {
      heapTrims.inc();
      heapTrimSeconds.inc(seconds);
    },
    requests: new FastCounter({ name: 'apiserver_request_total', help: 'Counter of apiserver requests broken out for each verb, group, version, resource, scope, component, and HTTP response code.', labelNames: [...requestLabels, 'code'] }).registerIn(registry),
    duration: new FastHistogram({
      name: 'apiserver_request_duration_seconds',
      help: 'Response latency distribution in seconds for each verb, group, version, resource, subresource, scope and component.',
      labelNames: requestLabels,
      buckets: latencyBuckets,
    }).registerIn(registry),
    inflight: new FastGauge({ name: 'apiserver_current_inflight_requests', help: 'Maximal number of currently used inflight request limit of this apiserver per request kind in last second.', labelNames: ['request_kind'] }).registerIn(registry),
    longrunning: new FastGauge({ name: 'apiserver_longrunning_requests', help: 'Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component.', labelNames: requestLabels }).registerIn(registry),
    storageObjects: new Gauge({
      name: 'apiserver_storage_objects',
      help: 'Number of stored objects at the time of last check split by kind.',
      labelNames: ['resource'],
      registers: [registry],
      async collect() {
        try {
          for (const { resource, count } of await countObjects()) this.set({ resource }, count);
        } catch {
          /* storage unreachable: keep the last values */
        }
      },
    }),
    etcdDuration: new FastHistogram({ name: 'etcd_request_duration_seconds', help: 'Etcd request latency in seconds for each operation and object type.', labelNames: ['operation', 'type'], buckets: latencyBuckets }).registerIn(registry),
    watchEvents,
  };
}
