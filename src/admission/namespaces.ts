/**
 * Namespace lookups for the namespace admission plugins, through the
 * registry: the watch cache first, then storage when the cache has no
 * answer or may be stale, as upstream's plugins use an informer and a live
 * client. The registry is passed lazily: it is built with these plugins.
 */
import type { KObject } from '../machinery/object';
import type { ResourceDefinition } from '../machinery/resource-definition';
import { errors } from '../machinery/status';
import type { Registry } from '../registry/registry';
import type { ClockPort } from '../ports/clock.port';
import type { ObjectResult } from '../registry/results';
import { namespaceDefinition } from '../resources/namespace';
import type { ConfigurationChanges } from './config-changes';

/** The server's own identity for the writes it makes on a client's behalf (upstream's loopback client). */
const apiserverUser = { username: 'system:apiserver', groups: ['system:masters', 'system:authenticated'] };

const maxRemembered = 10_000;

export function isNamespaceKind(def: ResourceDefinition): boolean {
  return def.group === '' && def.kind === 'Namespace';
}

export class Namespaces {
  /**
   * The last decoded version of each namespace with the bytes it came from: every write into a namespace looks
   * it up, and comparing bytes is far cheaper than parsing them (the cache hands out a fresh view each time).
   */
  private readonly decoded = new Map<string, { bytes: Buffer; object: KObject }>();
  /**
   * With the cache's change notices for namespaces, what each name looked like at the last look, kept until a
   * namespace changes (as upstream's plugins read a lister): most writes then read no namespace at all.
   */
  private readonly looked = new Map<string, KObject | undefined>();
  private changesSeen = 0;
  private subscribed = false;
  private following = false;

  constructor(
    private readonly registry: () => Registry,
    readonly clock: ClockPort,
    private readonly changes?: ConfigurationChanges,
  ) {}

  /** From the watch cache (may lag behind storage). Shared between requests: read it, never change it. */
  async cached(name: string): Promise<KObject | undefined> {
    if (!this.subscribed) this.follow();
    if (this.following && this.looked.has(name)) return this.looked.get(name);
    const seen = this.changesSeen;
    const object = await this.lookUp(name);
    // Kept only when no namespace changed while it was read.
    if (this.following && seen === this.changesSeen) {
      if (this.looked.size >= maxRemembered) this.looked.clear();
      this.looked.set(name, object);
    }
    return object;
  }

  /** The last look at `name`, while it is known that no namespace changed since (the cache's change notices). */
  remembered(name: string): { object: KObject | undefined } | undefined {
    return this.following && this.looked.has(name) ? { object: this.looked.get(name) } : undefined;
  }

  private follow(): void {
    this.subscribed = true;
    if (!this.changes) return;
    try {
      this.changes(namespaceDefinition, () => {
        this.changesSeen++;
        this.looked.clear();
      });
      this.following = true;
    } catch {
      // Namespaces not in the cache: every look reads it.
    }
  }

  private async lookUp(name: string): Promise<KObject | undefined> {
    const found = await this.find(name, '0');
    if (!found) {
      this.decoded.delete(name);
      return undefined;
    }
    const json = found.json;
    const bytes = typeof json === 'string' ? Buffer.from(json) : json;
    const seen = this.decoded.get(name);
    if (seen && seen.bytes.equals(bytes)) return seen.object;
    const object = found.object;
    if (this.decoded.size >= maxRemembered) this.decoded.clear(); // namespaces come and go; forget them all now and then
    // A copy: the view may point into a cache slab that is later compacted and reused.
    this.decoded.set(name, { bytes: Buffer.from(bytes), object });
    return object;
  }

  /** From storage. */
  async live(name: string): Promise<KObject | undefined> {
    return (await this.find(name))?.object;
  }

  /** A namespace by name; resourceVersion "0" reads the watch cache, none reads storage. */
  private async find(name: string, resourceVersion?: string): Promise<ObjectResult | undefined> {
    try {
      return await this.registry().get(namespaceDefinition, undefined, name, resourceVersion);
    } catch (e) {
      if ((e as { status?: { code?: number } }).status?.code === 404) return undefined;
      throw e;
    }
  }

  /** Creates an empty namespace; one that exists already is fine. */
  async create(name: string): Promise<void> {
    try {
      await this.registry().create(namespaceDefinition, undefined, { metadata: { name } }, {
        user: apiserverUser,
        dryRun: false,
        fieldManager: 'kube-apiserver',
        fieldValidation: 'Ignore',
        warnings: [],
        apiVersion: 'v1',
      });
    } catch (e) {
      if ((e as { status?: { reason?: string } }).status?.reason !== 'AlreadyExists') throw e;
    }
  }

  notFound(name: string) {
    return errors.notFound(namespaceDefinition, name);
  }
}
