/**
 * Field selectors of both Event APIs, as upstream's ToSelectableFields and
 * the events.k8s.io label conversion: `source` is the source component, or
 * the reporting controller when there is none.
 */
import type { KObject } from '../../machinery/object';

type Getter = (obj: KObject) => string;
const refFields = ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'];
const str = (v: unknown) => (typeof v === 'string' ? v : '');
const ref = (obj: KObject, field: string) => (obj[field] ?? {}) as Record<string, unknown>;

function selectors(names: { ref: string; refLabel: string; controller: string; controllerLabel: string; source: string }): Record<string, Getter> {
  const out: Record<string, Getter> = {};
  for (const f of refFields) out[`${names.refLabel}.${f}`] = (o) => str(ref(o, names.ref)[f]);
  out.reason = (o) => str(o.reason);
  out[names.controllerLabel] = (o) => str(o[names.controller]);
  out.source = (o) => str(ref(o, names.source).component) || str(o[names.controller]);
  out.type = (o) => str(o.type);
  return out;
}

export const coreEventFields = selectors({
  ref: 'involvedObject',
  refLabel: 'involvedObject',
  controller: 'reportingComponent',
  controllerLabel: 'reportingComponent',
  source: 'source',
});

export const eventsEventFields = selectors({
  ref: 'regarding',
  refLabel: 'regarding',
  controller: 'reportingController',
  controllerLabel: 'reportingController',
  source: 'deprecatedSource',
});

export const unsupportedEventField = (field: string) => `field label not supported: ${field}`;
