/**
 * The registry's face towards the adapters: every verb for every served
 * definition, with request bodies checked against the kind's schema first.
 */
import { errors } from '../machinery/status';
import { KObject } from '../machinery/object';
import { ResourceDefinition } from '../machinery/resource-definition';
import { checkAndPrune } from '../machinery/schema/decode';
import { kindSchema } from '../machinery/schema/schema';
import { ensureMetadata } from './admission';
import { RegistryDeps } from './context';
import { deleteObject, DeleteResult } from './delete';
import { ReadPath, StorageReadPath } from './reader';
import { ListResult, ObjectResult } from './results';
import { DeleteOptions, FieldValidation, ListOptions, PatchRequest, WriteOptions } from './request';
import { ResourceStore } from './store';
import { DefinitionSet } from './definition-set';
import { applyPatch } from './patch';
import type { EventWatcher } from './watch-cache/cache-watcher';
import { ConvertingReadPath, converterOf, convertFromStorage } from './conversion';

/** A request body as the adapter decoded it, with the duplicate keys it saw. */
export interface DecodedBody {
  object: unknown;
  duplicateFields: string[];
}

export class Registry {
  private readonly stores = new Map<ResourceDefinition, ResourceStore>();
  private readonly reads: ReadPath;
  /** The served kinds, which kinds defined at run time join and leave. */
  readonly served: DefinitionSet;

  constructor(
    definitions: DefinitionSet | readonly ResourceDefinition[],
    deps: RegistryDeps,
    reads?: ReadPath,
  ) {
    this.served = definitions instanceof DefinitionSet ? definitions : new DefinitionSet(definitions);
    this.reads = new ConvertingReadPath(reads ?? new StorageReadPath(deps.storage, deps.gates), deps.gates);
    const cached = this.reads.cached;
    const storeOf = (def: ResourceDefinition) => new ResourceStore(def, deps, cached && ((key) => cached(def, key)));
    for (const def of this.served.all) this.stores.set(def, storeOf(def));
    this.served.onChange((change) => {
      if ('added' in change) this.stores.set(change.added, storeOf(change.added));
      else this.stores.delete(change.removed);
    });
  }

  /** The kinds served now. */
  get definitions(): readonly ResourceDefinition[] {
    return this.served.all;
  }

  private store(def: ResourceDefinition): ResourceStore {
    const s = this.stores.get(def);
    // A kind withdrawn while the request ran (its CustomResourceDefinition deleted): nothing is there any more.
    if (!s) throw errors.notFoundPath();
    return s;
  }

  /** Unknown and duplicate fields, handled per fieldValidation (apimachinery.md §6). */
  admitBody(def: ResourceDefinition, body: DecodedBody, validation: FieldValidation, warnings: string[]): KObject {
    const obj = ensureMetadata(def, body.object);
    const cannot = (why: string) => errors.badRequest(`${def.kind} in version "${def.version}" cannot be handled as a ${def.kind}: ${why}`);
    let unknownFields: string[];
    if (def.decodeBody) {
      // A kind with a schema of its own (custom resources) prunes and coerces as its schema says.
      const decoded = def.decodeBody(obj);
      if (decoded.error) throw cannot(decoded.error);
      unknownFields = decoded.unknownFields;
    } else {
      const report = checkAndPrune(obj, kindSchema(def), '', def.kind);
      if (report.typeErrors.length) throw cannot(report.typeErrors.join(', '));
      unknownFields = report.unknownFields;
    }
    const unknown = unknownFields.map((f) => `unknown field "${f}"`);
    const duplicates = body.duplicateFields.map((f) => `duplicate field "${f}"`);
    // A kind with a schema of its own is decoded as upstream decodes unstructured objects: the JSON decoder's
    // duplicates first, then what the schema does not know.
    const problems = def.decodeBody ? [...duplicates, ...unknown] : [...unknown, ...duplicates];
    if (validation === 'Strict' && problems.length) {
      throw cannot(`strict decoding error: ${problems.join(', ')}`);
    }
    if (validation === 'Warn') for (const p of problems) warnings.push(p); // no spread: there may be a great many
    return obj;
  }

  /** GET: from the watch cache when resourceVersion allows (its bytes, decoded only if asked), else from storage. */
  async get(def: ResourceDefinition, namespace: string | undefined, name: string, resourceVersion?: string): Promise<ObjectResult> {
    const found = await this.reads.get(def, namespace, name, resourceVersion);
    if (!found) throw errors.notFound(def, name);
    return found;
  }

  /** LIST, items as JSON bytes or decoded, whichever the caller reads. */
  list(def: ResourceDefinition, opts: ListOptions): Promise<ListResult> {
    return this.reads.list(def, opts);
  }

  /** WATCH: the events after opts.resourceVersion, from the read path (the watch cache). */
  watch(def: ResourceDefinition, opts: ListOptions): Promise<EventWatcher> {
    if (!this.reads.watch) throw errors.methodNotAllowed('watch', def);
    return this.reads.watch(def, opts);
  }

  create(def: ResourceDefinition, namespace: string | undefined, obj: KObject, opts: WriteOptions): Promise<ObjectResult> {
    return this.store(def).create(namespace, obj, opts);
  }

  update(def: ResourceDefinition, namespace: string | undefined, name: string, obj: KObject, opts: WriteOptions, subresource?: string): Promise<ObjectResult> {
    return this.store(def).update(namespace, name, obj, opts, subresource);
  }

  patch(def: ResourceDefinition, namespace: string | undefined, name: string, req: PatchRequest, opts: WriteOptions, subresource?: string): Promise<ObjectResult> {
    return applyPatch((d, b, v, w) => this.admitBody(d, b, v, w), this.store(def), namespace, name, req, opts, subresource);
  }


  /**
   * A write through a subresource view (a custom resource's /scale): `change` makes the new view from the current
   * one, which is validated as the view's kind and written back into the object under the kind's own update rules.
   * A resourceVersion in the new view is a precondition, as on any update.
   */
  updateView(def: ResourceDefinition, namespace: string | undefined, name: string, subresource: string, opts: WriteOptions, change: (current: KObject) => KObject): Promise<ObjectResult> {
    const view = def.subresources[subresource]?.view;
    if (!view) throw errors.notFoundPath();
    // A pinned resourceVersion is checked against each attempt's stored object, so a lost race is a 409 then too.
    return this.store(def).guaranteedUpdate(namespace, name, opts, undefined, false, async (old, copy) => {
      if (!old) throw errors.notFound(def, name);
      const next = change(view.toView(old));
      const errs = view.validate(next);
      if (errs.length) throw errors.invalid({ group: view.group, kind: view.kind }, name, errs);
      const obj = copy();
      view.fromView(next, obj);
      const rv = (next.metadata as KObject['metadata'] | undefined)?.resourceVersion;
      if (rv) obj.metadata.resourceVersion = rv;
      return obj;
    }, false);
  }

  async delete(def: ResourceDefinition, namespace: string | undefined, name: string, opts: DeleteOptions): Promise<DeleteResult> {
    const result = await deleteObject(this.store(def), namespace, name, opts);
    const converter = converterOf(def);
    // A delete works on the stored form (its writes only set deletion fields); an object it answers with is
    // converted to the request's version (a Status answer needs no call).
    if (!converter || result.body !== result.object) return result;
    const object = await convertFromStorage(converter, result.object);
    return { ...result, object, body: object };
  }

  /** Deletes every listed object through the per-item flow; answers with the list as it was. */
  async deleteCollection(def: ResourceDefinition, listOpts: ListOptions, opts: DeleteOptions): Promise<ListResult> {
    const list = await this.reads.list(def, listOpts);
    const store = this.store(def);
    for (const item of list.items) {
      try {
        await deleteObject(store, item.metadata.namespace, item.metadata.name!, opts);
      } catch (e) {
        if ((e as { status?: { code?: number } }).status?.code !== 404) throw e;
      }
    }
    return list;
  }
}
