/**
 * Whether admission's configuration (policies, bindings, webhook configurations) may have changed since it was
 * last read, told by the watch cache's change listeners as upstream's plugins are told by their informers: a
 * write with nothing changed there reads no list at all. Without a subscription (tests of a plugin alone) every
 * request reads the lists.
 */
import type { ResourceDefinition } from '../machinery/resource-definition';

/** Calls `changed` after the cache applied changes of `def`; returns the unsubscribe. Throws for a kind not cached. */
export type ConfigurationChanges = (def: ResourceDefinition, changed: () => void) => () => void;

export class ChangeFlag {
  private dirty = true;
  private readonly subscribed = new Set<ResourceDefinition>();
  private unsubscribable = false;

  constructor(private readonly changes?: ConfigurationChanges) {}

  /** True when the kinds may have changed since the last call (and always the first time); clears the flag. */
  take(kinds: readonly ResourceDefinition[]): boolean {
    for (const def of kinds) {
      if (this.subscribed.has(def)) continue;
      this.subscribed.add(def);
      this.dirty = true;
      try {
        this.changes?.(def, () => (this.dirty = true));
      } catch {
        this.unsubscribable = true; // a kind the cache does not hold: read every time
      }
    }
    const was = this.dirty || !this.changes || this.unsubscribable;
    this.dirty = false;
    return was;
  }

  /** After a read that failed: read again next time. */
  retry(): void {
    this.dirty = true;
  }
}
