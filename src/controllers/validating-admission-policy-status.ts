/**
 * The ValidatingAdmissionPolicy status controller (upstream's
 * validatingadmissionpolicy-status-controller): when a policy's generation is
 * newer than its status.observedGeneration, type-checks its expressions
 * against the kinds it matches and writes status.typeChecking and
 * observedGeneration through the status subresource. The type checker is
 * admission's, handed in by the composition root.
 */
import type { KObject } from '../machinery/object';
import { apiVersionOf, type ResourceDefinition } from '../machinery/resource-definition';
import { controllerWrite, serviceAccountUser, type Log } from './controller-identity';
import { handleEach, startPassLoop, type PassLoop } from './pass-loop';
import type { RegistryClient } from './registry-client';
import type { ExpressionWarning } from '../resources/validating-admission-policy';
import { watching, type WatchChanges } from './changes';

export const policyStatusControllerName = 'validatingadmissionpolicy-status-controller';
const user = serviceAccountUser(policyStatusControllerName);


/** Type-checks a policy against the served kinds. */
export type PolicyTypeChecker = (policy: KObject, served: readonly ResourceDefinition[]) => ExpressionWarning[];

interface PolicyStatus {
  observedGeneration?: number;
  typeChecking?: { expressionWarnings?: ExpressionWarning[] };
}

/** The policy with the status the controller writes, or undefined when its status is current. */
export function policyWithStatus(policy: KObject, served: readonly ResourceDefinition[], typeCheck: PolicyTypeChecker): KObject | undefined {
  const generation = policy.metadata.generation ?? 0;
  const status = (policy.status ?? {}) as PolicyStatus;
  if (generation <= (status.observedGeneration ?? 0)) return undefined;
  const warnings = typeCheck(policy, served);
  const typeChecking = warnings.length ? { expressionWarnings: warnings } : {};
  return { ...policy, status: { ...status, observedGeneration: generation, typeChecking } };
}

export function startPolicyStatus(registry: RegistryClient, policyKind: ResourceDefinition, typeCheck: PolicyTypeChecker, log: Log, watch: WatchChanges): PassLoop {
  const write = { ...controllerWrite(user, apiVersionOf(policyKind)), fieldManager: policyStatusControllerName };
  return startPassLoop({
    name: policyStatusControllerName,
    subscribe: watching(watch, [policyKind]),
    log,
    pass: async (stopped) => {
      const policies = (await registry.list(policyKind, { resourceVersion: '0' })).items;
      return handleEach(
        policies,
        stopped,
        async (policy) => {
          const next = policyWithStatus(policy, registry.definitions, typeCheck);
          if (next) await registry.update(policyKind, undefined, policy.metadata.name!, next, { ...write, warnings: [] }, 'status');
        },
        (policy, e) => log('warn', 'could not write the type checking of a ValidatingAdmissionPolicy', { policy: policy.metadata.name, error: (e as Error).message }),
      );
    },
  });
}
