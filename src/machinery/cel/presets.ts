/**
 * The two environments the server needs: CustomResourceDefinition rules
 * (`self`, `oldSelf` typed from the schema node the rule sits on) and
 * ValidatingAdmissionPolicy expressions (`object`, `oldObject`, `request`,
 * `params`, `namespaceObject`, `variables`, dyn where upstream uses dyn or
 * types the policy author cannot rely on).
 */
import { CelEnvironment } from './environment';
import { schemaDeclType, type DeclType, type OpenApiSchema } from './schema-types';
import { T } from './types';

export class RuleTypeError extends Error {
  override readonly name = 'RuleTypeError';
}

export interface CrdRuleEnvironment {
  readonly env: CelEnvironment;
  readonly decl: DeclType;
}

/** For rules on a schema node; `isResourceRoot` for the root of a resource or an embedded resource. */
export function crdRuleEnvironment(schema: OpenApiSchema, isResourceRoot: boolean): CrdRuleEnvironment {
  const decl = schemaDeclType(schema, isResourceRoot, 'Object');
  if (!decl) {
    throw new RuleTypeError(
      `rule declared on schema that does not support validation rules type: '${schema.type ?? ''}' x-kubernetes-preserve-unknown-fields: '${!!schema['x-kubernetes-preserve-unknown-fields']}'`,
    );
  }
  const self = { type: decl.type, bounds: decl.bounds };
  return { env: new CelEnvironment({ self, oldSelf: self }), decl };
}

/** For ValidatingAdmissionPolicy validations, match conditions, variables and audit annotations. */
export function admissionPolicyEnvironment(): CelEnvironment {
  const dyn = { type: T.dyn };
  return new CelEnvironment({
    object: dyn,
    oldObject: dyn,
    request: dyn,
    params: dyn,
    namespaceObject: dyn,
    variables: { type: T.map(T.string, T.dyn) },
  });
}
