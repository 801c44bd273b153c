/**
 * Who is told that a kind's cache applied changes: the in-process
 * controllers, woken instead of polling. The cache applies every write, so
 * telling is a loop over a set that is usually empty or small, and a
 * listener only takes note (it runs inside the cache's event handling);
 * what changed it reads later from the kind's event log.
 */
export type ChangeListener = () => void;

export class ChangeListeners {
  private readonly listeners = new Set<ChangeListener>();

  constructor(
    private readonly resource: string,
    private readonly logger: (level: 'error', msg: string, extra?: object) => void,
  ) {}

  /** Adds a listener; returns its removal. */
  add(listener: ChangeListener): () => void {
    // A wrapper of its own, so that adding one function twice gives two removals that each remove one.
    const entry = () => listener();
    this.listeners.add(entry);
    return () => void this.listeners.delete(entry);
  }

  notify(): void {
    for (const l of this.listeners) {
      try {
        l();
      } catch (e) {
        this.logger('error', 'watch cache change listener failed', { resource: this.resource, error: (e as Error).message });
      }
    }
  }
}
