/**
 * The kinds this server serves: the built-in ones from the start, and kinds
 * defined at run time (CustomResourceDefinitions) added and withdrawn while
 * it runs. Everything built from the served kinds (stores, the watch cache,
 * routes, discovery, OpenAPI) follows this one set: it tells them of each
 * change, and its version says whether what they built is still current.
 */
import type { ResourceDefinition } from '../machinery/resource-definition';

export type DefinitionChange = { added: ResourceDefinition } | { removed: ResourceDefinition };

export class DefinitionSet {
  private current: readonly ResourceDefinition[];
  private readonly listeners: Array<(change: DefinitionChange) => void> = [];
  /** Moves on every change: a cache of something built from the set is stale when its version differs. */
  version = 0;

  constructor(initial: readonly ResourceDefinition[]) {
    this.current = [...initial];
  }

  /** The served kinds now (a snapshot: a change makes a new array, so one held keeps what it was). */
  get all(): readonly ResourceDefinition[] {
    return this.current;
  }

  /** Listeners run in the order they were added, synchronously, before add() or remove() returns. */
  onChange(listener: (change: DefinitionChange) => void): void {
    this.listeners.push(listener);
  }

  add(def: ResourceDefinition): void {
    if (this.current.includes(def)) return;
    this.current = [...this.current, def];
    this.changed({ added: def });
  }

  remove(def: ResourceDefinition): void {
    if (!this.current.includes(def)) return;
    this.current = this.current.filter((d) => d !== def);
    this.changed({ removed: def });
  }

  private changed(change: DefinitionChange): void {
    this.version++;
    for (const l of this.listeners) l(change);
  }
}
