/**
 * `kubectl get events` columns, as upstream's event printer: when it was
 * last and first seen (from the series, the deprecated timestamps or
 * eventTime), type, reason, object, message; -o wide adds subobject,
 * source, first seen, count and name.
 */
import type { KObject } from '../../machinery/object';
import type { ColumnDefinition, TableConvention } from '../../machinery/resource-definition';
import { age } from '../../machinery/table';
import { eventsToCore } from './event.convert';
import type { CoreEvent } from './event.validation';

const col = (name: string, description: string, priority = 0, format?: string): ColumnDefinition => ({
  name,
  type: 'string',
  description,
  priority,
  ...(format ? { format } : {}),
});

const columns: ColumnDefinition[] = [
  col('Last Seen', 'When the most recent occurrence of this event was recorded.'),
  col('Type', 'Type of this event (Normal, Warning).'),
  col('Reason', 'Short, machine-understandable reason for the event.'),
  col('Object', 'The object this event is about.'),
  col('Subobject', 'The part of the object the event is about, e.g. a container.', 1),
  col('Source', 'The component (and host or instance) reporting this event.', 1),
  col('Message', 'A human-readable description of the event.'),
  col('First Seen', 'When the event was first recorded.', 1),
  col('Count', 'The number of times this event has occurred.', 1),
  col('Name', 'Name of the event.', 1, 'name'),
];

function sourceCell(e: CoreEvent): string {
  const component = e.source?.component || e.reportingComponent || '';
  const instance = e.source?.host || e.reportingInstance || '';
  return instance ? `${component}, ${instance}` : component;
}

function coreCells(e: CoreEvent, now: Date): unknown[] {
  const first = e.firstTimestamp ? age(e.firstTimestamp, now) : age(e.eventTime, now);
  let last = e.lastTimestamp ? age(e.lastTimestamp, now) : first;
  let count = e.count ?? 0;
  if (e.series) {
    last = age(e.series.lastObservedTime, now);
    count = e.series.count ?? 0;
  } else if (count === 0) {
    count = 1; // a singleton event of the new API has no count
  }
  const ref = e.involvedObject ?? {};
  const kind = (ref.kind ?? '').toLowerCase();
  const target = ref.name ? `${kind}/${ref.name}` : kind;
  return [last, e.type ?? '', e.reason ?? '', target, ref.fieldPath ?? '', sourceCell(e), (e.message ?? '').trim(), first, count, e.metadata.name];
}

export const coreEventTable: TableConvention = {
  columns,
  cells: (obj: KObject, now: Date) => coreCells(obj as CoreEvent, now),
};

export const eventsEventTable: TableConvention = {
  columns,
  cells: (obj: KObject, now: Date) => coreCells(eventsToCore(obj) as CoreEvent, now),
};
