/**
 * Event strategies for both APIs. Bodies are normalized on decode: JSON
 * nulls (unset pointers and zero times as Go clients send them) are not
 * stored, Time fields are kept at second precision and MicroTime fields at
 * microsecond precision, and a value that is not a time is a 400, as
 * upstream's decoder. Validation runs on the core form.
 */
import { errors } from '../../machinery/status';
import { KObject, isPlainObject } from '../../machinery/object';
import type { Strategy } from '../../machinery/resource-definition';
import { MicroTimeError, formatMicroTime, formatTime, parseMicroTime } from '../../machinery/micro-time';
import { eventsToCore } from './event.convert';
import { CoreEvent, validateEventCreate, validateEventUpdate } from './event.validation';

interface TimeFields {
  time: string[];
  micro: string[];
}

const coreTimes: TimeFields = { time: ['firstTimestamp', 'lastTimestamp'], micro: ['eventTime', 'series.lastObservedTime'] };
const eventsTimes: TimeFields = { time: ['deprecatedFirstTimestamp', 'deprecatedLastTimestamp'], micro: ['eventTime', 'series.lastObservedTime'] };

function dropNulls(obj: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(obj)) {
    if (v === null) delete obj[k];
    else if (isPlainObject(v) && k !== 'metadata') dropNulls(v);
  }
}

function reformat(obj: KObject, path: string, format: (t: ReturnType<typeof parseMicroTime>) => string): void {
  const [head, tail] = path.split('.');
  const holder = (tail ? obj[head] : obj) as Record<string, unknown> | undefined;
  const field = tail ?? head;
  const value = holder?.[field];
  if (typeof value !== 'string') return;
  try {
    holder![field] = format(parseMicroTime(value));
  } catch (e) {
    if (!(e instanceof MicroTimeError)) throw e;
    throw errors.badRequest(`Event in version "v1" cannot be handled as a Event: ${e.message}`);
  }
}

function normalizer(fields: TimeFields) {
  return (obj: KObject): void => {
    dropNulls(obj);
    for (const f of fields.time) reformat(obj, f, formatTime);
    for (const f of fields.micro) reformat(obj, f, formatMicroTime);
  };
}

export const coreEventStrategy: Strategy = {
  applyDefaults: normalizer(coreTimes),
  validate: (obj) => validateEventCreate(obj as CoreEvent, false),
  validateUpdate: (obj, old) => validateEventUpdate(obj as CoreEvent, old as CoreEvent, false),
};

export const eventsEventStrategy: Strategy = {
  applyDefaults: normalizer(eventsTimes),
  validate: (obj) => validateEventCreate(eventsToCore(obj) as CoreEvent, true),
  validateUpdate: (obj, old) => validateEventUpdate(eventsToCore(obj) as CoreEvent, eventsToCore(old) as CoreEvent, true),
};
