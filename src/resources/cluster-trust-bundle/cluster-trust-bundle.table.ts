/** `kubectl get clustertrustbundles` columns, as upstream's printer: Name, SignerName (no Age). */
import type { KObject } from '../../machinery/object';
import type { TableConvention } from '../../machinery/resource-definition';
import { nameColumn } from '../../machinery/table';

export const ctbTable: TableConvention = {
  columns: [nameColumn, { name: 'SignerName', type: 'string', description: 'The signer these trust anchors belong to.', priority: 0 }],
  cells(obj: KObject) {
    const signerName = (obj.spec as { signerName?: string } | undefined)?.signerName;
    return [obj.metadata.name, signerName || '<none>'];
  },
};
