/** ValidatingAdmissionPolicy: the admission plugin, and the type checking its policies' status reports. */
export { ValidatingAdmissionPolicy, type PolicyPluginDeps } from './plugin';
export type { NamespaceReader } from './dispatcher';
export type { PolicyRegistry } from './params';
export type { PolicyObject } from './policy-types';
export { typeCheck, typesToCheck, type ExpressionWarning } from './typechecking';
