/**
 * The ValidatingAdmissionPolicy admission plugin (upstream's name): validates every write
 * (create, update, patch, apply, delete, subresources, dry runs alike) against the
 * ValidatingAdmissionPolicies bound by ValidatingAdmissionPolicyBindings, both read
 * through the registry. The policy kinds themselves are exempt, as upstream exempts them,
 * so that a bad policy can always be removed.
 */
import type { AuthorizerPort } from '../../ports/authorizer.port';
import type { ConfigurationChanges } from '../config-changes';
import type { AdmissionAttributes, AdmissionPlugin } from '../../registry/admission-chain';
import { dispatch, type NamespaceReader } from './dispatcher';
import type { PolicyRegistry } from './params';
import { PolicySource } from './source';
import { andThen, type MaybePromise } from '../../machinery/maybe-async';

const EXEMPT = new Set(['validatingadmissionpolicies', 'validatingadmissionpolicybindings', 'mutatingadmissionpolicies', 'mutatingadmissionpolicybindings']);

export interface PolicyPluginDeps {
  /** The registry (passed lazily: it is built with its admission chain). */
  registry: () => PolicyRegistry;
  namespaces: NamespaceReader;
  /** Answers the `authorizer` variable's checks. */
  authorizer: () => AuthorizerPort;
  /** When policies and bindings changed (without it, every request reads them). */
  changes?: ConfigurationChanges;
}

export class ValidatingAdmissionPolicy implements AdmissionPlugin {
  readonly name = 'ValidatingAdmissionPolicy';
  private readonly source: PolicySource;

  constructor(private readonly deps: PolicyPluginDeps) {
    this.source = new PolicySource(deps.changes);
  }

  /** At once when no policy is bound (the policies and bindings unchanged since the last look), else by dispatch. */
  validate(a: AdmissionAttributes): MaybePromise<void> {
    if (EXEMPT.has(a.definition.plural) && a.definition.group.startsWith('admissionregistration.')) return;
    const registry = this.deps.registry();
    return andThen(this.source.hooks(registry), (hooks) =>
      hooks.length ? dispatch(a, hooks, { registry, namespaces: this.deps.namespaces, authorizer: this.deps.authorizer() }) : undefined,
    );
  }
}

