/**
 * The plugin over an in-memory stand-in for the registry's public face (list, get,
 * definitions), with the real policy kinds (stored as given, unvalidated): tests store policies, bindings, params
 * and namespaces, then run admission attributes through the plugin.
 */
import type { KObject } from '../../../../src/machinery/object';
import type { ResourceDefinition, UserInfo } from '../../../../src/machinery/resource-definition';
import { errors } from '../../../../src/machinery/status';
import { alwaysAllow, type AuthorizerPort } from '../../../../src/ports/authorizer.port';
import type { AdmissionAttributes, AdmissionOperation } from '../../../../src/registry/admission-chain';
import type { ListOptions, WriteOptions } from '../../../../src/registry/request';
import { ListResult, ObjectResult } from '../../../../src/registry/results';
import { ValidatingAdmissionPolicy, type PolicyRegistry } from '../../../../src/admission/policy';
import { configMapDefinition } from '../../../../src/resources/config-map';
import { namespaceDefinition } from '../../../../src/resources/namespace';
import { roleDefinition } from '../../../../src/resources/role';
import { eventDefinitions } from '../../../../src/resources/event';
import { validatingAdmissionPolicyDefinition } from '../../../../src/resources/validating-admission-policy';
import { validatingAdmissionPolicyBindingDefinition } from '../../../../src/resources/validating-admission-policy-binding';
import { binding, policy } from '../../../support/policy-objects';

export class FakeRegistry implements PolicyRegistry {
  definitions: readonly ResourceDefinition[];
  private readonly objects = new Map<ResourceDefinition, Map<string, KObject>>();
  private revision = 1;
  lists = 0;

  constructor(defs: readonly ResourceDefinition[]) {
    this.definitions = defs;
  }

  put(def: ResourceDefinition, obj: KObject): void {
    const o = structuredClone(obj);
    o.metadata.resourceVersion = String(++this.revision);
    o.metadata.uid ??= `uid-${o.metadata.name}`;
    if (!this.objects.has(def)) this.objects.set(def, new Map());
    const key = `${o.metadata.namespace ?? ''}/${o.metadata.name}`;
    o.metadata.generation = (this.objects.get(def)!.get(key)?.metadata.generation ?? 0) + 1;
    this.objects.get(def)!.set(key, o);
  }

  async list(def: ResourceDefinition, opts: ListOptions): Promise<ListResult> {
    this.lists++;
    const items = [...(this.objects.get(def)?.values() ?? [])].filter((o) => !opts.namespace || o.metadata.namespace === opts.namespace);
    return new ListResult({ kind: def.listKind, apiVersion: def.version, metadata: { resourceVersion: String(this.revision) } }, { decoded: items });
  }

  async get(def: ResourceDefinition, namespace: string | undefined, name: string): Promise<ObjectResult> {
    const o = this.objects.get(def)?.get(`${namespace ?? ''}/${name}`);
    if (!o) throw errors.notFound(def, name);
    return ObjectResult.of(o);
  }
}

export const served: readonly ResourceDefinition[] = [configMapDefinition, namespaceDefinition, roleDefinition, ...eventDefinitions, validatingAdmissionPolicyDefinition, validatingAdmissionPolicyBindingDefinition];

export function harness(authorizer: AuthorizerPort = alwaysAllow) {
  const registry = new FakeRegistry(served);
  const namespaces = {
    cached: async (name: string) => (await registry.get(namespaceDefinition, undefined, name).catch(() => undefined))?.object,
    live: async (name: string) => (await registry.get(namespaceDefinition, undefined, name).catch(() => undefined))?.object,
  };
  const plugin = new ValidatingAdmissionPolicy({ registry: () => registry, namespaces, authorizer: () => authorizer });
  registry.put(namespaceDefinition, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default', labels: { env: 'prod' } } });
  return {
    registry,
    plugin,
    addPolicy: (name: string, spec: Record<string, unknown>) => registry.put(validatingAdmissionPolicyDefinition, policy(name, spec)),
    addBinding: (name: string, spec: Record<string, unknown>) => registry.put(validatingAdmissionPolicyBindingDefinition, binding(name, spec)),
    put: (def: ResourceDefinition, obj: KObject) => registry.put(def, obj),
  };
}

const admin: UserInfo = { username: 'alice', groups: ['system:authenticated'] };

export function options(extra: Partial<WriteOptions> = {}): WriteOptions {
  return { user: admin, dryRun: false, fieldValidation: 'Strict', warnings: [], fieldManager: 'kubectl', ...extra };
}

/** Attributes of a write of a ConfigMap (or `def`) as the store hands them to admission. */
export function attributes(op: AdmissionOperation, obj: KObject | undefined, more: Partial<AdmissionAttributes> = {}): AdmissionAttributes {
  const def = more.definition ?? configMapDefinition;
  const meta = (obj ?? more.oldObject)!.metadata;
  return {
    operation: op,
    definition: def,
    namespace: def.namespaced ? (meta.namespace ?? 'default') : undefined,
    name: meta.name ?? '',
    object: op === 'DELETE' ? undefined : obj,
    user: admin,
    dryRun: false,
    options: options(),
    ...more,
  };
}

export function configMap(name: string, labels: Record<string, string> = {}, data: Record<string, string> = {}): KObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default', labels }, data } as KObject;
}

/** The Status a rejected write answers with, or undefined when admitted. */
export async function outcome(plugin: ValidatingAdmissionPolicy, a: AdmissionAttributes) {
  try {
    await plugin.validate(a);
    return undefined;
  } catch (e) {
    const status = (e as { status?: { code?: number; reason?: string; message?: string; details?: unknown } }).status;
    if (!status) throw e;
    return status;
  }
}
