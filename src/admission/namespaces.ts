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

  constructor(
    private readonly registry: () => Registry,
    readonly clock: ClockPort,
  ) {}

  /** From the watch cache (may lag behind storage). Shared between requests: read it, never change it. */
  async cached(name: string): Promise<KObject | undefined> {
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
