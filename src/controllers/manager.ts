/**
 * The in-process controller manager: the controllers `--controllers` selects
 * (upstream's syntax: `*` for every controller on by default, `name` to turn
 * one on, `-name` to turn one off), run only while this replica leads the
 * election when there is one, and stopped the moment it stops leading.
 */
import type { LeaderCallbacks, LeaderElector } from './leader-election';
import type { Log } from './controller-identity';

export interface RunningController {
  /** Stops timers and work in progress; no write starts after it returns. */
  stop(): void | Promise<void>;
}

export interface ControllerDescriptor {
  /** Canonical name, as kube-controller-manager's (e.g. `certificatesigningrequest-signing-controller`). */
  name: string;
  /** Older names `--controllers` also accepts (e.g. `csrsigning`). */
  aliases?: string[];
  /** Starts the controller; undefined when it has nothing to do (it is then reported as skipped). */
  start(): RunningController | undefined;
}

export class ControllerSelectionError extends Error {}

/** Upstream's validation of `--controllers`: every name (after `-`) must be known; aliases name their controller. */
export function normalizeSelection(selection: string[], known: ControllerDescriptor[]): string[] {
  const byName = new Map<string, string>();
  for (const d of known) {
    byName.set(d.name, d.name);
    for (const a of d.aliases ?? []) byName.set(a, d.name);
  }
  return selection.map((entry) => {
    if (entry === '*') return entry;
    const off = entry.startsWith('-');
    const name = off ? entry.slice(1) : entry;
    const canonical = byName.get(name);
    if (!canonical) throw new ControllerSelectionError(`"${name}" is not in the list of known controllers`);
    return off ? `-${canonical}` : canonical;
  });
}

/** Upstream's IsControllerEnabled: an explicit `name` or `-name` wins, else `*` turns on what is on by default. */
export function isControllerEnabled(name: string, selection: string[], disabledByDefault: ReadonlySet<string> = new Set()): boolean {
  let star = false;
  for (const entry of selection) {
    if (entry === name) return true;
    if (entry === `-${name}`) return false;
    if (entry === '*') star = true;
  }
  return star && !disabledByDefault.has(name);
}

export class ControllerManager {
  private readonly running = new Map<string, RunningController>();
  private readonly enabled: ControllerDescriptor[];
  private stopping?: Promise<void>;
  private readonly elector?: LeaderElector;

  constructor(
    descriptors: ControllerDescriptor[],
    selection: string[],
    private readonly log: Log,
    /** Builds the leader elector; without one every replica runs its controllers. */
    elect?: (callbacks: LeaderCallbacks) => LeaderElector,
  ) {
    this.elector = elect?.({ onStartedLeading: () => this.startAll(), onStoppedLeading: () => void this.stopAll() });
    const normalized = normalizeSelection(selection, descriptors);
    this.enabled = descriptors.filter((d) => isControllerEnabled(d.name, normalized));
    for (const d of descriptors) if (!this.enabled.includes(d)) log('info', 'controller is disabled by --controllers', { controller: d.name });
  }

  /** Names of the controllers that run now. */
  active(): string[] {
    return [...this.running.keys()];
  }

  isLeader(): boolean {
    return this.elector ? this.elector.isLeader() : true;
  }

  start(): void {
    if (!this.elector) return this.startAll();
    this.elector.start();
  }

  /** Called by the elector (or `start` without one). */
  startAll(): void {
    for (const d of this.enabled) {
      if (this.running.has(d.name)) continue;
      try {
        const c = d.start();
        if (c) {
          this.running.set(d.name, c);
          this.log('info', 'started controller', { controller: d.name });
        } else this.log('info', 'skipping controller: nothing to do with this configuration', { controller: d.name });
      } catch (e) {
        this.log('error', 'controller failed to start', { controller: d.name, error: (e as Error).message });
      }
    }
  }

  /** Stops every running controller (they may start again when leadership returns). */
  stopAll(): Promise<void> {
    const all = [...this.running.entries()];
    this.running.clear();
    return Promise.all(
      all.map(async ([name, c]) => {
        try {
          await c.stop();
          this.log('info', 'stopped controller', { controller: name });
        } catch (e) {
          this.log('warn', 'controller did not stop cleanly', { controller: name, error: (e as Error).message });
        }
      }),
    ).then(() => undefined);
  }

  /** Shutdown: stop the controllers, then hand the lease back. */
  shutdown(): Promise<void> {
    this.stopping ??= (async () => {
      await this.stopAll();
      await this.elector?.stop();
    })();
    return this.stopping;
  }
}
