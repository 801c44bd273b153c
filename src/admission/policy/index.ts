/** ValidatingAdmissionPolicy: the admission plugin, and the type checking its policies' status reports. */
export { ValidatingAdmissionPolicy, type PolicyPluginDeps } from './plugin';
export type { NamespaceReader } from './dispatcher';
export type { PolicyRegistry } from './params';
export { typeCheck, typesToCheck, type ExpressionWarning } from './typechecking';
