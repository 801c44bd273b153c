/** `kubectl get validatingwebhookconfigurations` / `mutatingwebhookconfigurations` columns, as upstream's printers: Name, Webhooks, Age. */
import type { KObject } from '../../machinery/object';
import type { TableConvention } from '../../machinery/resource-definition';
import { age, ageColumn, nameColumn } from '../../machinery/table';
import type { WebhookConfigurationObject } from './validating-webhook-configuration.validation';

export const webhookConfigurationTable: TableConvention = {
  columns: [nameColumn, { name: 'Webhooks', type: 'integer', description: 'Webhooks indicates the number of webhooks registered in this configuration', priority: 0 }, ageColumn],
  cells(obj: KObject, now: Date) {
    return [obj.metadata.name, ((obj as WebhookConfigurationObject).webhooks ?? []).length, age(obj.metadata.creationTimestamp, now)];
  },
};
