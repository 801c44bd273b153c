/** `kubectl get csr` columns, as upstream's printer: Name, Age, SignerName, Requestor, RequestedDuration, Condition. */
import type { KObject } from '../../machinery/object';
import type { TableConvention } from '../../machinery/resource-definition';
import { age, ageColumn, humanDuration, nameColumn } from '../../machinery/table';
import type { CsrObject } from './certificate-signing-request.validation';

/** Denied wins over Approved, then Pending; Failed and Issued are appended. */
export function csrCondition(csr: CsrObject): string {
  const types = new Set((csr.status?.conditions ?? []).map((c) => c.type));
  let text = types.has('Denied') ? 'Denied' : types.has('Approved') ? 'Approved' : 'Pending';
  if (types.has('Failed')) text += ',Failed';
  if (csr.status?.certificate) text += ',Issued';
  return text;
}

export const csrTable: TableConvention = {
  columns: [
    nameColumn,
    ageColumn,
    { name: 'SignerName', type: 'string', description: 'The signer the request is addressed to.', priority: 0 },
    { name: 'Requestor', type: 'string', description: 'The user who created the request.', priority: 0 },
    { name: 'RequestedDuration', type: 'string', description: 'The requested validity (spec.expirationSeconds).', priority: 0 },
    { name: 'Condition', type: 'string', description: 'Approval state, plus Failed and Issued when they apply.', priority: 0 },
  ],
  cells(obj: KObject, now: Date) {
    const csr = obj as CsrObject & { spec?: { username?: string } };
    const expiration = csr.spec?.expirationSeconds;
    return [
      obj.metadata.name,
      age(obj.metadata.creationTimestamp, now),
      csr.spec?.signerName || '<none>',
      csr.spec?.username ?? '',
      typeof expiration === 'number' ? humanDuration(expiration * 1000) : '<none>',
      csrCondition(csr),
    ];
  },
};
