/**
 * The values a policy's expressions read, built as upstream builds them: `request` is the
 * AdmissionRequest (plugin/cel CreateAdmissionRequest) with kind/resource as matched and
 * requestKind/requestResource as requested, in its JSON form (empty strings left out);
 * `namespaceObject` is CreateNamespaceObject's subset of the namespace, timestamps as
 * timestamps; objects and params are untyped JSON (whole numbers as ints).
 */
import { authorizerValue, celValue, jsonView, resourceCheckValue, toCelValue, type CelValue, type OpenApiSchema } from '../../machinery/cel';
import type { AuthorizerPort } from '../../ports/authorizer.port';
import { convertObject } from './equivalence';
import type { KObject } from '../../machinery/object';
import type { ResourceDefinition } from '../../machinery/resource-definition';
import type { DeleteOptions } from '../../registry/request';
import type { AdmissionAttributes } from '../../registry/admission-chain';

/** Drops empty strings, undefined and empty lists/maps, as `omitempty` does. */
function compact<T extends Record<string, unknown>>(o: T): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) {
    if (v === undefined || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    if (v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0) continue;
    out[k] = v;
  }
  return out as Partial<T>;
}

/** The options object admission sees: upstream converts patch options to Create or UpdateOptions. */
export function operationOptions(a: AdmissionAttributes): Record<string, unknown> {
  const o = a.options;
  const common = { dryRun: o.dryRun ? ['All'] : undefined };
  if (a.operation === 'DELETE') {
    const d = o as DeleteOptions;
    return compact({
      kind: 'DeleteOptions',
      apiVersion: 'meta.k8s.io/v1',
      gracePeriodSeconds: d.gracePeriodSeconds,
      preconditions: d.preconditions,
      orphanDependents: d.orphanDependents,
      propagationPolicy: d.propagationPolicy,
      ...common,
      ignoreStoreReadErrorWithClusterBreakingPotential: d.ignoreStoreReadErrorWithClusterBreakingPotential,
    });
  }
  const kind = a.operation === 'CREATE' ? 'CreateOptions' : 'UpdateOptions';
  return compact({ kind, apiVersion: 'meta.k8s.io/v1', ...common, fieldManager: o.fieldManager, fieldValidation: o.fieldValidation });
}

const gvk = (d: ResourceDefinition) => ({ group: d.group, version: d.version, kind: d.kind });
const gvr = (d: ResourceDefinition) => ({ group: d.group, version: d.version, resource: d.plural });

/** The `request` variable for a request matched as kind `matched`. */
export function requestValue(a: AdmissionAttributes, namespace: string, matched: ResourceDefinition): CelValue {
  const u = a.user;
  const request = compact({
    kind: gvk(matched),
    resource: gvr(matched),
    subResource: a.subresource,
    requestKind: gvk(a.definition),
    requestResource: gvr(a.definition),
    requestSubResource: a.subresource,
    name: a.name,
    namespace,
    operation: a.operation,
    userInfo: compact({ username: u.username, uid: u.uid, groups: u.groups, extra: u.extra }),
    options: operationOptions(a),
  });
  return celValue(toCelValue({ ...request, dryRun: a.dryRun }));
}

const timestamp: OpenApiSchema = { type: 'string', format: 'date-time' };
const namespaceSchema: OpenApiSchema = {
  type: 'object',
  properties: {
    metadata: { type: 'object', properties: { creationTimestamp: timestamp, deletionTimestamp: timestamp } },
    status: { type: 'object', properties: { conditions: { type: 'array', items: { type: 'object', properties: { lastTransitionTime: timestamp } } } } },
  },
};

const converted = new WeakMap<KObject, CelValue>();

/** The `namespaceObject` variable; converted once per decoded namespace (the cache hands out the same one). */
export function namespaceValue(ns: KObject | undefined): CelValue {
  if (!ns) return null as unknown as CelValue;
  let v = converted.get(ns);
  if (v === undefined) {
    const m = ns.metadata;
    const metadata = compact({
      name: m.name,
      generateName: m.generateName,
      namespace: m.namespace,
      uid: m.uid,
      resourceVersion: m.resourceVersion,
      generation: m.generation,
      creationTimestamp: m.creationTimestamp,
      deletionTimestamp: m.deletionTimestamp,
      deletionGracePeriodSeconds: m.deletionGracePeriodSeconds,
      labels: m.labels,
      annotations: m.annotations,
      finalizers: m.finalizers,
    });
    const { spec, status } = ns as KObject & { spec?: unknown; status?: unknown };
    v = celValue(toCelValue({ metadata, spec: spec ?? {}, status: status ?? {} }, namespaceSchema));
    converted.set(ns, v);
  }
  return v;
}

/** An object or param as CEL sees it, converted as it is read; null when absent. */
export function objectValue(o: KObject | undefined): CelValue {
  return (o ? jsonView(o) : null) as CelValue;
}

/**
 * A request's variables as matched as one kind, each made when an expression first reads it (most read `object`
 * alone). Fields, not closures: one of these is made for every write a policy sees.
 */
export class KindInputs {
  #object?: CelValue;
  #oldObject?: CelValue;
  #request?: CelValue;
  #authorizer?: unknown;
  #requestResource?: unknown;

  constructor(
    private readonly a: AdmissionAttributes,
    /** The kind the request is matched as (its own, or an equivalent one). */
    private readonly matched: ResourceDefinition,
    /** Upstream's attribute namespace of the request. */
    private readonly namespace: string,
    private readonly authorizerPort: AuthorizerPort,
  ) {}

  private converted(o: KObject | undefined): CelValue {
    return objectValue(o ? convertObject(o, this.a.definition, this.matched) : undefined);
  }

  get object() {
    return (this.#object ??= this.converted(this.a.object));
  }
  get oldObject() {
    return (this.#oldObject ??= this.converted(this.a.oldObject));
  }
  get request() {
    return (this.#request ??= requestValue(this.a, this.namespace, this.matched));
  }
  get authorizer() {
    return (this.#authorizer ??= authorizerValue(this.a.user, this.authorizerPort));
  }
  get requestResource() {
    const a = this.a;
    const r = a.definition;
    return (this.#requestResource ??= resourceCheckValue(a.user, this.authorizerPort, { group: r.group, resource: r.plural, subresource: a.subresource ?? '', namespace: this.namespace, name: a.name }));
  }
}

// Symbols rather than properties: CEL reads the activation by name, and these are no variables.
const KIND = Symbol('kind');
const AUTHORIZED = Symbol('authorized');

/**
 * The activation of one evaluation, read by name: the kind's variables, the namespace and
 * the params; `authorizer` only where upstream binds it (not for messages or annotations).
 */
export class PolicyInputs {
  /** Set by each evaluation run. */
  variables?: unknown;
  readonly [KIND]: KindInputs;
  readonly [AUTHORIZED]: boolean;

  constructor(kind: KindInputs, readonly namespaceObject: CelValue, readonly params: CelValue, authorized: boolean) {
    this[KIND] = kind;
    this[AUTHORIZED] = authorized;
  }

  /** The same inputs without `authorizer`, for messages and audit annotations (as upstream binds them). */
  withoutAuthorizer(): PolicyInputs {
    return new PolicyInputs(this[KIND], this.namespaceObject, this.params, false);
  }

  get object() {
    return this[KIND].object;
  }
  get oldObject() {
    return this[KIND].oldObject;
  }
  get request() {
    return this[KIND].request;
  }
  get authorizer() {
    return this[AUTHORIZED] ? this[KIND].authorizer : undefined;
  }
  get 'authorizer.requestResource'() {
    return this[AUTHORIZED] ? this[KIND].requestResource : undefined;
  }
}
