/**
 * Event: core v1 `events` and events.svc.io/v1 `events`, namespaced, over
 * one stored object (the core form, under the core key). Both expire after
 * --event-ttl (the composition root gives their definitions a TTL).
 */
import type { ResourceDefinition } from '../../machinery/resource-definition';
import { nameIsDNSSubdomain, validatePathSegmentName } from '../../machinery/validation/names';
import { coreToEvents, eventsToCore } from './event.convert';
import { coreEventFields, eventsEventFields, unsupportedEventField } from './event.fields';
import { coreEventStrategy, eventsEventStrategy } from './event.strategy';
import { coreEventTable, eventsEventTable } from './event.table';
import { Event, EventsEvent } from './event.types';

export const coreEventDefinition: ResourceDefinition = {
  group: '',
  version: 'v1',
  kind: 'Event',
  listKind: 'EventList',
  plural: 'events',
  singular: 'event',
  shortNames: ['ev'],
  categories: [],
  namespaced: true,
  schemaRoot: Event,
  strategy: coreEventStrategy,
  subresources: {},
  fieldSelectors: coreEventFields,
  unknownFieldSelectorMessage: unsupportedEventField,
  table: coreEventTable,
  usesGeneration: false,
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: true,
  // Legacy events only need a name that is safe in a URL path, as upstream's generic check.
  validateName: validatePathSegmentName,
};

export const eventsEventDefinition: ResourceDefinition = {
  ...coreEventDefinition,
  group: 'events.svc.io',
  // client-go's events/v1 recorder (k8s.io/client-go/tools/events) hard-codes upstream's group.
  upstreamGroup: 'events.k8s.io',
  schemaRoot: EventsEvent,
  strategy: eventsEventStrategy,
  fieldSelectors: eventsEventFields,
  table: eventsEventTable,
  validateName: nameIsDNSSubdomain,
  storedAs: { group: '', plural: 'events', toStorage: eventsToCore, fromStorage: coreToEvents },
};

export const eventDefinitions: readonly ResourceDefinition[] = [coreEventDefinition, eventsEventDefinition];
