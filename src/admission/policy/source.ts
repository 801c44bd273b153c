/**
 * The policies in force (generic/policy_source.go): every policy with at least one binding,
 * compiled, with its paramKind resolved to a served kind. Read through the registry from
 * the watch cache on every request, and rebuilt only when what a list holds (or the set of
 * served kinds) changed; a policy is recompiled only when it changed. Without any binding,
 * a request costs one cached list; with some, two, and nothing is decoded.
 */
import type { ResourceDefinition } from '../../machinery/resource-definition';
import { ChangeFlag, type ConfigurationChanges } from '../config-changes';
import { seenOf, unchanged, type Seen } from '../list-snapshot';
import { compilePolicy, type CompiledPolicy } from './compile';
import { findKind, parseGroupVersion } from './equivalence';
import type { PolicyRegistry } from './params';
import {
  ADMISSIONREGISTRATION_GROUP,
  BINDING_PLURAL,
  defaultMatchResources,
  failurePolicyOf,
  POLICY_PLURAL,
  type BindingObject,
  type MatchResourcesObject,
  type PolicyObject,
} from './policy-types';

export interface BoundBinding {
  readonly binding: BindingObject;
  /** Defaulted; undefined matches everything the policy matches. */
  readonly matchResources?: MatchResourcesObject;
}

export interface PolicyHook {
  readonly policy: PolicyObject;
  readonly name: string;
  /** Defaulted; undefined when the policy has none (it then matches nothing). */
  readonly matchConstraints?: MatchResourcesObject;
  readonly bindings: readonly BoundBinding[];
  readonly compiled: CompiledPolicy;
  readonly failurePolicy: string;
  /** The served kind of the policy's params. */
  readonly paramDefinition?: ResourceDefinition;
  /** Why the policy cannot be applied (its paramKind is not served): each matching request meets it. */
  readonly configurationError?: string;
}

export function findPolicyKinds(served: readonly ResourceDefinition[]) {
  const find = (plural: string) => served.find((d) => d.group === ADMISSIONREGISTRATION_GROUP && d.plural === plural);
  return { policy: find(POLICY_PLURAL), binding: find(BINDING_PLURAL) };
}

/** Go's `%v` of a schema.GroupVersionKind. */
const gvkString = (group: string, version: string, kind: string) => `${group}/${version}, Kind=${kind}`;

export class PolicySource {
  private served?: readonly ResourceDefinition[];
  private kinds: ReturnType<typeof findPolicyKinds> = { policy: undefined, binding: undefined };
  private seen?: { served: readonly ResourceDefinition[]; bindings: Seen; bindingItems: BindingObject[]; policies?: Seen };
  private current: PolicyHook[] = [];
  private readonly compiled = new Map<string, { resourceVersion: string; compiled: CompiledPolicy }>();
  private readonly flag: ChangeFlag;

  constructor(changes?: ConfigurationChanges) {
    this.flag = new ChangeFlag(changes);
  }

  /** The hooks in force now; without a promise while nothing changed (every write asks). */
  hooks(registry: PolicyRegistry): readonly PolicyHook[] | Promise<readonly PolicyHook[]> {
    const served = registry.definitions;
    if (served !== this.served) {
      this.served = served;
      this.kinds = findPolicyKinds(served);
    }
    const { policy, binding } = this.kinds;
    if (!policy || !binding) return [];
    if (!this.flag.take([policy, binding]) && this.seen?.served === served) return this.current;
    return this.read(registry, policy, binding, served).catch((e) => {
      this.flag.retry();
      throw e;
    });
  }

  private async read(registry: PolicyRegistry, policy: ResourceDefinition, binding: ResourceDefinition, served: readonly ResourceDefinition[]): Promise<readonly PolicyHook[]> {
    const bindings = await registry.list(binding, { resourceVersion: '0' });
    const seen = this.seen?.served === served ? this.seen : undefined;
    const bindingsSame = unchanged(seen?.bindings, bindings);
    // No binding then and none now: nothing else to read.
    if (bindingsSame && !seen!.policies) return this.current;
    const bindingItems = bindingsSame ? seen!.bindingItems : (bindings.items as BindingObject[]);
    const bindingsSeen = bindingsSame ? seen!.bindings : seenOf(bindings);
    if (!bindingItems.length) {
      this.seen = { served, bindings: bindingsSeen, bindingItems };
      return (this.current = []);
    }
    const policies = await registry.list(policy, { resourceVersion: '0' });
    if (bindingsSame && unchanged(seen!.policies, policies)) return this.current;
    this.current = this.build(policies.items as PolicyObject[], bindingItems, served);
    this.seen = { served, bindings: bindingsSeen, bindingItems, policies: seenOf(policies) };
    return this.current;
  }

  private build(policies: PolicyObject[], bindings: BindingObject[], served: readonly ResourceDefinition[]): PolicyHook[] {
    const byPolicy = new Map<string, BoundBinding[]>();
    for (const b of bindings) {
      const name = b.spec?.policyName ?? '';
      const mr = b.spec?.matchResources;
      const list = byPolicy.get(name) ?? [];
      list.push({ binding: b, matchResources: mr ? defaultMatchResources(mr) : undefined });
      byPolicy.set(name, list);
    }
    const hooks: PolicyHook[] = [];
    const live = new Set<string>();
    for (const p of policies) {
      const name = p.metadata.name ?? '';
      const bound = byPolicy.get(name);
      if (!bound) continue;
      const spec = p.spec ?? {};
      let paramDefinition: ResourceDefinition | undefined;
      let configurationError: string | undefined;
      if (spec.paramKind) {
        const gv = parseGroupVersion(spec.paramKind.apiVersion ?? '');
        if (!gv) continue; // upstream drops a policy whose paramKind apiVersion does not parse
        const kind = spec.paramKind.kind ?? '';
        paramDefinition = findKind(served, gv.group, gv.version, kind);
        if (!paramDefinition) configurationError = `failed to find resource referenced by paramKind: '${gvkString(gv.group, gv.version, kind)}'`;
      }
      const key = p.metadata.uid ?? name;
      live.add(key);
      hooks.push({
        policy: p,
        name,
        matchConstraints: spec.matchConstraints ? defaultMatchResources(spec.matchConstraints) : undefined,
        bindings: bound,
        compiled: this.compile(key, p),
        failurePolicy: failurePolicyOf(p),
        paramDefinition,
        configurationError,
      });
    }
    for (const key of this.compiled.keys()) if (!live.has(key)) this.compiled.delete(key);
    return hooks;
  }

  private compile(key: string, p: PolicyObject): CompiledPolicy {
    // The spec's generation, where the kind keeps one: a status update (type checking) recompiles nothing.
    const m = p.metadata;
    const rv = m.generation !== undefined ? `g${m.generation}` : `rv${m.resourceVersion ?? ''}`;
    const known = this.compiled.get(key);
    if (known && known.resourceVersion === rv && rv !== 'rv') return known.compiled;
    const compiled = compilePolicy(p);
    this.compiled.set(key, { resourceVersion: rv, compiled });
    return compiled;
  }
}
