/** Type checking a policy against the schemas of the kinds it matches, for status.typeChecking. */
import { typeCheck, typesToCheck } from '../../../../src/admission/policy';
import { served } from './harness';
import { policy } from '../../../support/policy-objects';

const rules = (resources: string[], apiGroups = [''], apiVersions = ['v1']) => ({ resourceRules: [{ apiGroups, apiVersions, resources, operations: ['*'] }] });

describe('policy type checking', () => {
  it('warns about a field the matched kind does not have, as upstream words it', () => {
    const p = policy('p', {
      matchConstraints: rules(['configmaps']),
      validations: [
        { expression: "object.data.all(k, k != '')" },
        { expression: 'object.spec.replicas > 1', messageExpression: "'bad ' + object.metadata.name" },
        { expression: 'true', messageExpression: 'object.nope' },
      ],
    });
    expect(typeCheck(p as never, served)).toEqual([
      { fieldRef: 'spec.validations[1].expression', warning: "/v1, Kind=ConfigMap: ERROR: <input>:1:7: undefined field 'spec'\n | object.spec.replicas > 1\n | ......^\n" },
      { fieldRef: 'spec.validations[2].messageExpression', warning: "/v1, Kind=ConfigMap: ERROR: <input>:1:7: undefined field 'nope'\n | object.nope\n | ......^\n" },
    ]);
  });

  it('checks each exactly named kind, sorted by group, version and kind, skipping wildcards and subresources', () => {
    const p = policy('p', {
      matchConstraints: {
        resourceRules: [
          { apiGroups: ['rbac.authorization.k8s.io'], apiVersions: ['v1'], resources: ['roles', 'roles/status', '*'], operations: ['*'] },
          { apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps', 'namespaces'], operations: ['*'] },
          { apiGroups: ['*'], apiVersions: ['v1'], resources: ['leases'], operations: ['*'] },
        ],
      },
    });
    expect(typesToCheck(p as never, served).map((d) => `${d.group}/${d.kind}`)).toEqual(['/ConfigMap', '/Namespace', 'rbac.authorization.svc.io/Role']);
    const warned = typeCheck({ ...p, spec: { ...(p as unknown as { spec: object }).spec, validations: [{ expression: 'object.data.size() > 0' }] } } as never, served);
    expect(warned).toHaveLength(1);
    expect(warned[0].warning.split('\n\n').map((w) => w.slice(0, w.indexOf(':')))).toEqual(['/v1, Kind=Namespace', 'rbac.authorization.svc.io/v1, Kind=Role']);
  });

  it('types params from the paramKind schema, and variables from their expressions', () => {
    const p = policy('p', {
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      matchConstraints: rules(['configmaps']),
      variables: [{ name: 'n', expression: 'object.metadata.name' }],
      validations: [{ expression: "params.data['max'] == variables.n" }, { expression: 'params.spec == variables.n' }, { expression: 'variables.n > 1' }],
    });
    const warnings = typeCheck(p as never, served);
    expect(warnings.map((w) => w.fieldRef)).toEqual(['spec.validations[1].expression', 'spec.validations[2].expression']);
    expect(warnings[1].warning).toContain("found no matching overload for '_>_' applied to '(string, int)'");
  });

  it('has nothing to say about a policy whose kinds it cannot name', () => {
    expect(typeCheck(policy('p', { matchConstraints: rules(['*']), validations: [{ expression: 'object.x' }] }) as never, served)).toEqual([]);
  });
});
