/**
 * In-memory stand-ins for the webhook plugins' collaborators: a registry
 * holding webhook configurations and namespaces (counting list reads and
 * decodes), a WebhookPort answering per URL, and builders of attributes,
 * configurations and AdmissionReview answers.
 */
import type { KObject } from '../../../../src/machinery/object';
import type { ResourceDefinition } from '../../../../src/machinery/resource-definition';
import { errors } from '../../../../src/machinery/status';
import { alwaysAllow, type AuthorizerPort } from '../../../../src/ports/authorizer.port';
import { WebhookCallError, type WebhookClientConfig, type WebhookPort } from '../../../../src/ports/webhook.port';
import type { AdmissionAttributes, AdmissionOperation } from '../../../../src/registry/admission-chain';
import type { WriteOptions } from '../../../../src/registry/request';
import type { ListResult, ObjectResult } from '../../../../src/registry/results';
import { allDefinitions } from '../../../../src/resources';
import { namespaceDefinition } from '../../../../src/resources/namespace';
import type { WebhookJson } from '../../../../src/admission/webhooks/configuration';
import type { WebhookEnv, WebhookRegistry } from '../../../../src/admission/webhooks';
import { webhookConfigurationKinds } from '../../../support/webhook-configuration-kinds';

export class FakeRegistry implements WebhookRegistry {
  readonly definitions: ResourceDefinition[] = [...allDefinitions];
  readonly served = { version: 1 };
  /** The configuration kinds: the real ones, else test-only ones. */
  readonly kinds = webhookConfigurationKinds({ all: this.definitions, add: (d) => this.definitions.push(d) });
  private readonly configs = new Map<ResourceDefinition, KObject[]>();
  private readonly namespaces = new Map<string, KObject>();
  private revision = 1;
  lists = 0;
  decodes = 0;
  namespaceReads = 0;
  nowMs = 1_000_000;
  private uids = 0;
  readonly deps: { clock: { now(): Date }; random: { uuid(): string; int(): number }; authorizer: AuthorizerPort } = {
    clock: { now: () => new Date(this.nowMs) },
    random: { uuid: () => `uid-${++this.uids}`, int: () => 0 },
    authorizer: alwaysAllow,
  };

  /** Stores a configuration (a new resourceVersion, as a write would give it). */
  put(kind: 'mutating' | 'validating', config: KObject): void {
    const def = this.kinds[kind];
    const rv = String(++this.revision);
    const list = (this.configs.get(def) ?? []).filter((c) => c.metadata.name !== config.metadata.name);
    list.push({ ...config, metadata: { uid: `cfg-${config.metadata.name}`, ...config.metadata, resourceVersion: rv } });
    this.configs.set(def, list);
  }

  /** A write of some other kind: the cache's resourceVersion moves, the configurations stay. */
  unrelatedWrite(): void {
    this.revision++;
  }

  addNamespace(name: string, labels: Record<string, string> = {}): void {
    this.namespaces.set(name, { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });
  }

  async list(def: ResourceDefinition): Promise<ListResult> {
    this.lists++;
    const items = this.configs.get(def) ?? [];
    const owner = this;
    return {
      metadata: { resourceVersion: String(this.revision) },
      get items() {
        owner.decodes++;
        return structuredClone(items);
      },
      // The items' JSON as the cache holds it, one piece each.
      body: items.map((item, i) => Buffer.from((i ? ',' : '') + JSON.stringify(item))),
    } as unknown as ListResult;
  }

  async get(def: ResourceDefinition, _ns: string | undefined, name: string): Promise<ObjectResult> {
    if (def !== namespaceDefinition) throw new Error(`unexpected read of ${def.plural}`);
    this.namespaceReads++;
    const ns = this.namespaces.get(name);
    if (!ns) throw errors.notFound(def, name);
    return { object: structuredClone(ns) } as ObjectResult;
  }
}

export interface Posted {
  url: URL;
  review: { apiVersion: string; kind: string; request: Record<string, any> };
  timeoutMs: number;
  caBundle?: string;
}

type Handler = (review: Posted['review'], posted: Posted) => unknown;

/** A WebhookPort answering by URL (origin and path); unknown URLs are refused as a closed port is. */
export class FakeWebhooks implements WebhookPort {
  readonly posted: Posted[] = [];
  private readonly handlers = new Map<string, Handler>();

  on(url: string, handler: Handler): this {
    this.handlers.set(url, handler);
    return this;
  }

  async post(config: WebhookClientConfig, body: unknown, timeoutMs: number): Promise<unknown> {
    const url = new URL(config.url!);
    const posted: Posted = { url, review: structuredClone(body) as Posted['review'], timeoutMs, caBundle: config.caBundle };
    this.posted.push(posted);
    const handler = this.handlers.get(url.origin + url.pathname);
    if (!handler) throw new WebhookCallError('unreachable', `connect ECONNREFUSED ${url.host}`);
    return handler(posted.review, posted);
  }

  /** The paths called, in order. */
  paths(): string[] {
    return this.posted.map((p) => p.url.pathname);
  }
}

/** An allowing v1 answer to `review`, with extra response fields. */
export function allow(review: Posted['review'], extra: Record<string, unknown> = {}): unknown {
  return { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: review.request.uid, allowed: true, ...extra } };
}

export function deny(review: Posted['review'], status?: Record<string, unknown>): unknown {
  return { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: review.request.uid, allowed: false, ...(status ? { status } : {}) } };
}

/** An allowing answer with a JSON patch. */
export function patch(review: Posted['review'], ops: unknown[]): unknown {
  return allow(review, { patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(ops)).toString('base64') });
}

export const hookUrl = (path: string) => `https://hooks.test${path}`;

/** A webhook on ConfigMap creates, called at https://hooks.test/<name>, with v1 reviews and no side effects. */
export function hook(name: string, extra: Partial<WebhookJson> = {}): WebhookJson {
  return {
    name: `${name}.hooks.test`,
    clientConfig: { url: hookUrl(`/${name}`) },
    rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    ...extra,
  };
}

export function configuration(name: string, webhooks: WebhookJson[]): KObject {
  return { metadata: { name }, webhooks };
}

export function options(extra: Partial<WriteOptions> = {}): WriteOptions {
  return { user: { username: 'alice', groups: ['dev', 'system:authenticated'] }, dryRun: false, fieldManager: 'kubectl', fieldValidation: 'Strict', warnings: [], kind: 'CreateOptions', ...extra };
}

export function configMap(name: string, labels?: Record<string, string>, namespace = 'default'): KObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, ...(labels ? { labels } : {}) }, data: { a: '1' } };
}

export function attributes(def: ResourceDefinition, operation: AdmissionOperation, obj: { object?: KObject; oldObject?: KObject }, extra: Partial<AdmissionAttributes> = {}): AdmissionAttributes {
  const meta = (obj.object ?? obj.oldObject)!.metadata;
  const opts = extra.options ?? options({ dryRun: extra.dryRun ?? false, kind: operation === 'CREATE' ? 'CreateOptions' : operation === 'UPDATE' ? 'UpdateOptions' : 'DeleteOptions' });
  return { operation, definition: def, namespace: meta.namespace, name: meta.name ?? '', user: opts.user, dryRun: opts.dryRun, options: opts, ...obj, ...extra };
}

/** The plugins' environment over a fake registry: its clock, uids and (swappable) authorizer. */
export function envOf(registry: FakeRegistry): WebhookEnv {
  return { registry: () => registry, clock: registry.deps.clock, random: registry.deps.random, authorizer: () => registry.deps.authorizer };
}
