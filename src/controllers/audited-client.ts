/**
 * The registry as the controllers' client, with every write audited as
 * upstream audits kube-controller-manager's requests over HTTP: one event
 * in the shape of the HTTP request that would have made the write (its
 * requestURI, verb, objectRef), under the writer's identity (the user its
 * write options carry, which the registry also records), with the response
 * status, the request and response objects at the policy's levels, and the
 * RequestReceived and ResponseComplete stages unless the policy omits them.
 * Reads, which upstream's controllers serve from their informers' caches,
 * are not audited. Composition hands this to every controller.
 */
import type { ResourceDefinition, UserInfo } from '../machinery/resource-definition';
import { errors, type Status } from '../machinery/status';
import type { AuditTrail, ResponseFacts } from '../auth/audit/trail';
import type { DeleteOptions, ListOptions } from '../registry/request';
import type { RegistryClient } from './registry-client';

export interface AuditedClientOptions {
  /** The User-Agent of the writer (upstream's controller-manager names the controller in it). */
  userAgent: (user: UserInfo) => string;
  newId: () => string;
}

interface Write {
  def: ResourceDefinition;
  verb: 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';
  user: UserInfo;
  namespace?: string;
  name?: string;
  subresource?: string;
  /** What an HTTP client would have sent as the body. */
  body?: unknown;
  query?: string;
}

/** The path an HTTP client would have written to (upstream's REST paths). */
export function requestUri(w: Pick<Write, 'def' | 'namespace' | 'name' | 'subresource' | 'query'>): string {
  const { def } = w;
  const base = def.group ? `/apis/${def.group}/${def.version}` : `/api/${def.version}`;
  const ns = def.namespaced && w.namespace ? `/namespaces/${w.namespace}` : '';
  const item = w.name ? `/${w.name}${w.subresource ? `/${w.subresource}` : ''}` : '';
  return `${base}${ns}/${def.plural}${item}${w.query ? `?${w.query}` : ''}`;
}

/** The DeleteOptions body client-go sends with a delete. */
function deleteBody(o: DeleteOptions): Record<string, unknown> {
  const body: Record<string, unknown> = { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1' };
  if (o.gracePeriodSeconds !== undefined) body.gracePeriodSeconds = o.gracePeriodSeconds;
  if (o.preconditions) body.preconditions = o.preconditions;
  if (o.propagationPolicy) body.propagationPolicy = o.propagationPolicy;
  if (o.dryRun) body.dryRun = ['All'];
  return body;
}

function selectorQuery(o: ListOptions): string | undefined {
  const q = new URLSearchParams();
  if (o.labelSelector) q.set('labelSelector', o.labelSelector);
  if (o.fieldSelector) q.set('fieldSelector', o.fieldSelector);
  return q.size ? q.toString() : undefined;
}

export function auditedClient(registry: RegistryClient, trail: Pick<AuditTrail, 'begin'> | undefined, opts: AuditedClientOptions): RegistryClient {
  if (!trail) return registry;
  const audited = async <T>(w: Write, run: () => Promise<T>, answer: (result: T) => { code: number; object: unknown }): Promise<T> => {
    const record = trail.begin(
      { auditID: opts.newId(), requestURI: requestUri(w), sourceIPs: ['127.0.0.1'], userAgent: opts.userAgent(w.user) },
      {
        user: w.user,
        verb: w.verb,
        resourceRequest: true,
        apiGroup: w.def.group,
        apiVersion: w.def.version,
        resource: w.def.plural,
        subresource: w.subresource,
        namespace: w.def.namespaced ? w.namespace : undefined,
        name: w.name,
      },
    );
    if (!record) return run();
    // As sent: the registry may fill in the object it is given.
    if (record.level !== 'Metadata' && w.body !== undefined) record.requestObject(structuredClone(w.body));
    let result: T;
    try {
      result = await run();
    } catch (e) {
      const status: Status = (e as { status?: Status }).status ?? errors.internal((e as Error).message).status;
      const facts: ResponseFacts = { code: status.code ?? 500, status, responseObject: status };
      record.complete(facts);
      throw e;
    }
    const { code, object } = answer(result);
    record.complete({ code, status: (object as { kind?: string }).kind === 'Status' ? (object as Status) : undefined, responseObject: object });
    return result;
  };
  return {
    definitions: registry.definitions,
    get: (def, namespace, name, resourceVersion) => registry.get(def, namespace, name, resourceVersion),
    list: (def, o) => registry.list(def, o),
    watch: (def, o) => registry.watch(def, o),
    create: (def, namespace, obj, o) =>
      audited({ def, verb: 'create', user: o.user, namespace: namespace ?? obj.metadata.namespace, body: obj }, () => registry.create(def, namespace, obj, o), (r) => ({ code: 201, object: r.object })),
    update: (def, namespace, name, obj, o, subresource) =>
      audited({ def, verb: 'update', user: o.user, namespace, name, subresource, body: obj }, () => registry.update(def, namespace, name, obj, o, subresource), (r) => ({
        code: r.created ? 201 : 200,
        object: r.object,
      })),
    patch: (def, namespace, name, req, o, subresource) =>
      audited({ def, verb: 'patch', user: o.user, namespace, name, subresource, body: req.body }, () => registry.patch(def, namespace, name, req, o, subresource), (r) => ({
        code: r.created ? 201 : 200,
        object: r.object,
      })),
    delete: (def, namespace, name, o) =>
      audited({ def, verb: 'delete', user: o.user, namespace, name, body: deleteBody(o) }, () => registry.delete(def, namespace, name, o), (r) => ({ code: r.code, object: r.body })),
    deleteCollection: (def, listOpts, o) =>
      audited(
        { def, verb: 'deletecollection', user: o.user, namespace: listOpts.namespace, body: deleteBody(o), query: selectorQuery(listOpts) },
        () => registry.deleteCollection(def, listOpts, o),
        // A ListResult: its items are decoded only if a RequestResponse event writes them (toJSON).
        (r) => ({ code: 200, object: r }),
      ),
  };
}
