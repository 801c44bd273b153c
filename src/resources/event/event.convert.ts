/**
 * events.svc.io/v1 Event <-> core v1 Event, as upstream's conversion: the
 * same data under other names, both ways without loss. The stored form is
 * the core one. Each result takes its own kind's Go JSON shape (the two
 * kinds' tags differ), as upstream encodes each version from one object.
 */
import type { KObject } from '../../machinery/object';
import { shapeAsGo } from '../../machinery/schema/go-shape';
import { schemaOf } from '../../machinery/schema/schema';
import { Event, EventsEvent } from './event.types';

/** [core field, events.svc.io/v1 field], in each kind's field order. */
const renames: Array<[string, string]> = [
  ['involvedObject', 'regarding'],
  ['reason', 'reason'],
  ['message', 'note'],
  ['source', 'deprecatedSource'],
  ['firstTimestamp', 'deprecatedFirstTimestamp'],
  ['lastTimestamp', 'deprecatedLastTimestamp'],
  ['count', 'deprecatedCount'],
  ['type', 'type'],
  ['eventTime', 'eventTime'],
  ['series', 'series'],
  ['action', 'action'],
  ['related', 'related'],
  ['reportingComponent', 'reportingController'],
  ['reportingInstance', 'reportingInstance'],
];

const v1Order = [
  'eventTime',
  'series',
  'reportingController',
  'reportingInstance',
  'action',
  'reason',
  'regarding',
  'related',
  'note',
  'type',
  'deprecatedSource',
  'deprecatedFirstTimestamp',
  'deprecatedLastTimestamp',
  'deprecatedCount',
];

export const EVENTS_API_VERSION = 'events.svc.io/v1';

export function eventsToCore(obj: KObject): KObject {
  const out: KObject = { kind: 'Event', apiVersion: 'v1', metadata: { ...obj.metadata } };
  for (const [core, v1] of renames) if (obj[v1] !== undefined) out[core] = structuredClone(obj[v1]);
  return shaped(out, Event);
}

export function coreToEvents(obj: KObject): KObject {
  const out: KObject = { kind: 'Event', apiVersion: EVENTS_API_VERSION, metadata: { ...obj.metadata } };
  const byV1 = new Map(renames.map(([core, v1]) => [v1, core]));
  for (const v1 of v1Order) {
    const value = obj[byV1.get(v1)!];
    if (value !== undefined) out[v1] = structuredClone(value);
  }
  return shaped(out, EventsEvent);
}

/** In the kind's Go shape; managedFields stay as they are (the field manager owns their form). */
function shaped(obj: KObject, root: Function): KObject {
  const managedFields = obj.metadata.managedFields;
  shapeAsGo(obj, schemaOf(root));
  if (managedFields !== undefined) obj.metadata.managedFields = managedFields;
  return obj;
}
