/**
 * How controllers learn that what they read has changed: the watch cache
 * wakes them (composition hands them `WatchChanges`, see
 * composition/cache-views.ts), as upstream's informers call their event
 * handlers. A wake-up only says "look again"; a pass then reads the state.
 */
import type { ResourceDefinition } from '../machinery/resource-definition';

/** One object the watch cache changed, as a wake-up filter sees it. */
export interface ChangedObject {
  readonly name: string;
  /** For namespaced kinds. */
  readonly namespace?: string;
  /** The object's JSON as it now is; undefined once it is deleted. */
  readonly json?: Buffer;
  /** Whether it now has a deletionTimestamp (false once it is deleted). */
  readonly deleting?: boolean;
}

export type ChangeFilter = (o: ChangedObject) => boolean;

/**
 * Calls `wake` after the watch cache applied changes of `def` (once per
 * burst, outside the write that caused it) when `filter`, if given, accepts
 * one of the changed objects; returns the unsubscribe.
 */
export type WatchChanges = (def: ResourceDefinition, wake: () => void, filter?: ChangeFilter) => () => void;

/** As WatchChanges, for every served kind: kinds served later (custom resources) join, withdrawn ones leave. */
export type WatchAllChanges = (wake: () => void, filter?: ChangeFilter) => () => void;

/** A pass loop's subscription to several kinds (each with an optional filter). */
export function watching(watch: WatchChanges, kinds: Array<ResourceDefinition | [ResourceDefinition, ChangeFilter]>): (wake: () => void) => () => void {
  return (wake) => {
    const stops = kinds.map((k) => (Array.isArray(k) ? watch(k[0], wake, k[1]) : watch(k, wake)));
    return () => stops.forEach((stop) => stop());
  };
}

/**
 * Whether some object of `def` that the watch cache holds passes `test` on
 * its JSON, nothing decoded (true while the kind is not loaded): a cheap
 * look before a pass that would decode everything.
 */
export type ScanCache = (def: ResourceDefinition, test: (json: Buffer) => boolean) => boolean;

/** Objects being deleted: what the garbage collector and the namespace controller act on. */
export const beingDeleted: ChangeFilter = (o) => !!o.deleting;
