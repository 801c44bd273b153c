/**
 * NamespaceLifecycle, as upstream's plugin: the system namespaces cannot be
 * deleted; nothing is written into a namespace that does not exist (404);
 * nothing is created in a Terminating namespace (403, with a
 * NamespaceTerminating cause). Deletes of namespaced objects always pass,
 * so that the namespace controller can empty a namespace. After a
 * namespace is deleted through this server, its phase is read from storage
 * for 30 s, since the cache may not show Terminating yet.
 */
import { errors } from '../machinery/status';
import type { AdmissionAttributes, AdmissionPlugin } from '../registry/admission-chain';
import { PHASE_ACTIVE, PHASE_TERMINATING, type NamespaceObject } from '../resources/namespace';
import { isNamespaceKind, Namespaces } from './namespaces';

const forceLiveLookupMs = 30_000;

export class NamespaceLifecycle implements AdmissionPlugin {
  readonly name = 'NamespaceLifecycle';
  /** Namespace name -> until when its phase is read from storage. */
  private readonly recentlyDeleted = new Map<string, number>();

  constructor(
    private readonly namespaces: Namespaces,
    private readonly immortal: ReadonlySet<string>,
  ) {}

  admit(a: AdmissionAttributes): void | Promise<void> {
    if (isNamespaceKind(a.definition)) {
      if (a.operation !== 'DELETE') return;
      if (this.immortal.has(a.name)) throw errors.forbidden(a.definition, a.name, 'this namespace may not be deleted');
      this.recentlyDeleted.set(a.name, this.now() + forceLiveLookupMs);
      return;
    }
    if (!a.definition.namespaced || !a.namespace || a.operation === 'DELETE') return;
    // A namespace seen since the last change to any namespace, and not one deleted through here a moment ago: its
    // phase is at hand.
    const known = this.namespaces.remembered(a.namespace)?.object as NamespaceObject | undefined;
    if (known && !this.mayBeStale(a.namespace)) return this.refuseTerminating(a, known);
    return this.admitLooked(a, a.namespace);
  }

  private async admitLooked(a: AdmissionAttributes, namespace: string): Promise<void> {
    let ns = (await this.namespaces.cached(namespace)) as NamespaceObject | undefined;
    if (!ns || (this.mayBeStale(namespace) && ns.status?.phase === PHASE_ACTIVE)) {
      ns = (await this.namespaces.live(namespace)) as NamespaceObject | undefined;
      if (!ns) throw this.namespaces.notFound(namespace);
    }
    this.refuseTerminating(a, ns);
  }

  /** Nothing is created in a namespace being terminated. */
  private refuseTerminating(a: AdmissionAttributes, ns: NamespaceObject): void {
    if (a.operation === 'CREATE' && ns.status?.phase === PHASE_TERMINATING) {
      const err = errors.forbidden(a.definition, a.name, `unable to create new content in namespace ${a.namespace} because it is being terminated`);
      err.status.details!.causes = [{ reason: 'NamespaceTerminating', message: `namespace ${a.namespace} is being terminated`, field: 'metadata.namespace' }];
      throw err;
    }
  }

  private mayBeStale(name: string): boolean {
    const until = this.recentlyDeleted.get(name);
    if (until === undefined) return false;
    if (until > this.now()) return true;
    this.recentlyDeleted.delete(name);
    return false;
  }

  private now(): number {
    return this.namespaces.clock.now().getTime();
  }
}
