/** `kubectl get rolebindings` / `clusterrolebindings` columns (upstream printRoleBinding): Name, Role, Age; wide: Users, Groups, ServiceAccounts. */
import type { KObject } from '../../machinery/object';
import type { ColumnDefinition, TableConvention } from '../../machinery/resource-definition';
import { age, ageColumn, nameColumn } from '../../machinery/table';
import type { BindingObject } from './role-binding.validation';

const wide = (name: string, description: string): ColumnDefinition => ({ name, type: 'string', description, priority: 1 });

/** Subjects by kind, as upstream's SubjectsStrings shows them (service accounts as namespace/name). */
export function subjectStrings(obj: KObject): { users: string[]; groups: string[]; serviceAccounts: string[] } {
  const out = { users: [] as string[], groups: [] as string[], serviceAccounts: [] as string[] };
  for (const s of (obj as BindingObject).subjects ?? []) {
    if (s.kind === 'User') out.users.push(s.name ?? '');
    else if (s.kind === 'Group') out.groups.push(s.name ?? '');
    else if (s.kind === 'ServiceAccount') out.serviceAccounts.push(`${s.namespace ?? ''}/${s.name ?? ''}`);
  }
  return out;
}

export function bindingTable(roleDescription: string): TableConvention {
  return {
    columns: [
      nameColumn,
      { name: 'Role', type: 'string', description: roleDescription, priority: 0 },
      ageColumn,
      wide('Users', 'Users in the binding.'),
      wide('Groups', 'Groups in the binding.'),
      wide('ServiceAccounts', 'Service accounts in the binding.'),
    ],
    cells(obj: KObject, now: Date) {
      const ref = (obj as BindingObject).roleRef ?? {};
      const { users, groups, serviceAccounts } = subjectStrings(obj);
      return [
        obj.metadata.name,
        `${ref.kind ?? ''}/${ref.name ?? ''}`,
        age(obj.metadata.creationTimestamp, now),
        users.join(', '),
        groups.join(', '),
        serviceAccounts.join(', '),
      ];
    },
  };
}

export const roleBindingTable = bindingTable('The Role or ClusterRole granted, as Kind/name.');
