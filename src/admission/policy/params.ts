/**
 * The param objects a binding hands its policy (generic.CollectParams): none asked for
 * (no paramKind or no paramRef) is one null param; a name is read from the watch cache,
 * then from storage when the cache has not seen it yet (upstream's direct read); a
 * selector lists the namespace or the cluster. The namespace of a namespaced param
 * defaults to the request's. Nothing found with parameterNotFoundAction Deny is an error.
 */
import { labelSelectorAsSelector } from '../../machinery/label-selector';
import type { KObject } from '../../machinery/object';
import type { ResourceDefinition } from '../../machinery/resource-definition';
import type { ListOptions } from '../../registry/request';
import type { ListResult, ObjectResult } from '../../registry/results';
import type { ParamKindObject, ParamRefObject } from './policy-types';

/** What the plugin reads through: the registry's public face. */
export interface PolicyRegistry {
  readonly definitions: readonly ResourceDefinition[];
  list(def: ResourceDefinition, opts: ListOptions): Promise<ListResult>;
  get(def: ResourceDefinition, namespace: string | undefined, name: string, resourceVersion?: string): Promise<ObjectResult>;
}

/** A configuration problem: the binding's failurePolicy decides what it means for the request. */
export class ParamError extends Error {}

const isNotFound = (e: unknown) => (e as { status?: { code?: number } }).status?.code === 404;

async function getParam(registry: PolicyRegistry, def: ResourceDefinition, namespace: string | undefined, name: string): Promise<ObjectResult | undefined> {
  for (const rv of ['0', undefined]) {
    try {
      return await registry.get(def, namespace, name, rv);
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
  }
  return undefined;
}

/** Decoded params by the bytes they came from: the cache hands out bytes, and most requests read the same param. */
class DecodedParams {
  private readonly seen = new Map<string, { json: Buffer | string; object: KObject }>();

  of(key: string, found: ObjectResult): KObject {
    const json = found.json;
    const hit = this.seen.get(key);
    if (hit && (typeof json === 'string' ? hit.json === json : Buffer.isBuffer(hit.json) && hit.json.equals(json))) return hit.object;
    if (this.seen.size >= 1000) this.seen.clear();
    // A copy: cached bytes may live in a slab that is compacted and reused later.
    this.seen.set(key, { json: typeof json === 'string' ? json : Buffer.from(json), object: found.object });
    return found.object;
  }
}

const decoded = new WeakMap<ResourceDefinition, DecodedParams>();

/** Upstream shows a param its TypeMeta even when the stored object lacks it. */
function withTypeMeta(o: KObject, kind: ParamKindObject): KObject {
  return o.apiVersion && o.kind ? o : { ...o, apiVersion: o.apiVersion || kind.apiVersion!, kind: o.kind || kind.kind! };
}

const NO_PARAMS: readonly (KObject | null)[] = Object.freeze([null]);

/**
 * The params to evaluate the policy with; `null` is the one param of a binding without params. A policy without
 * params (most of them) answers at once, without a promise: admission runs on every write.
 */
export function collectParams(
  registry: PolicyRegistry,
  paramKind: ParamKindObject | null | undefined,
  def: ResourceDefinition | undefined,
  ref: ParamRefObject | null | undefined,
  requestNamespace: string,
): readonly (KObject | null)[] | Promise<(KObject | null)[]> {
  if (!paramKind || !ref || !def) return NO_PARAMS;
  return readParams(registry, paramKind, def, ref, requestNamespace);
}

async function readParams(
  registry: PolicyRegistry,
  paramKind: ParamKindObject,
  def: ResourceDefinition,
  ref: ParamRefObject,
  requestNamespace: string,
): Promise<(KObject | null)[]> {
  let namespace: string | undefined;
  if (def.namespaced) {
    namespace = ref.namespace || requestNamespace;
    if (!namespace) throw new ParamError('cannot use namespaced paramRef in policy binding that matches cluster-scoped resources');
  } else if (ref.namespace) {
    throw new ParamError('paramRef.namespace must not be provided for a cluster-scoped `paramKind`');
  }
  let params: KObject[];
  if (ref.name) {
    if (ref.selector) throw new ParamError('paramRef.name and paramRef.selector are mutually exclusive');
    const found = await getParam(registry, def, namespace, ref.name);
    let cache = decoded.get(def);
    if (!cache) decoded.set(def, (cache = new DecodedParams()));
    params = found ? [cache.of(`${namespace ?? ''}/${ref.name}`, found)] : [];
  } else if (ref.selector) {
    let selector;
    try {
      selector = labelSelectorAsSelector(ref.selector);
    } catch (e) {
      throw new ParamError((e as Error).message);
    }
    const list = await registry.list(def, { namespace, resourceVersion: '0' });
    params = list.items.filter((o) => selector.matches(o.metadata.labels ?? {}));
  } else {
    throw new ParamError('one of name or selector must be provided');
  }
  if (!params.length && ref.parameterNotFoundAction === 'Deny') throw new ParamError('no params found for policy binding with `Deny` parameterNotFoundAction');
  return params.map((p) => withTypeMeta(p, paramKind));
}
