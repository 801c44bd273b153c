/** `kubectl get validatingadmissionpolicies` columns, as upstream's printer: Name, Validations, ParamKind, Age. */
import type { KObject } from '../../machinery/object';
import type { TableConvention } from '../../machinery/resource-definition';
import { age, ageColumn, nameColumn } from '../../machinery/table';
import type { PolicyObject } from './validating-admission-policy.validation';

export const policyTable: TableConvention = {
  columns: [
    nameColumn,
    { name: 'Validations', type: 'integer', description: 'Validations indicates the number of validation rules defined in this configuration', priority: 0 },
    { name: 'ParamKind', type: 'string', description: 'ParamKind specifies the kind of resources used to parameterize this policy', priority: 0 },
    ageColumn,
  ],
  cells(obj: KObject, now: Date) {
    const spec = (obj as PolicyObject).spec ?? {};
    const paramKind = spec.paramKind ? `${spec.paramKind.apiVersion ?? ''}/${spec.paramKind.kind ?? ''}` : '<unset>';
    return [obj.metadata.name, (spec.validations ?? []).length, paramKind, age(obj.metadata.creationTimestamp, now)];
  },
};
