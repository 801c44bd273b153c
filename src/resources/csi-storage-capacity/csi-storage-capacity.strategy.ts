/**
 * CSIStorageCapacity strategy: quantities must parse while decoding (a bad
 * one is a 400, as upstream's decoder) and are stored in canonical form.
 */
import type { KObject } from '../../machinery/object';
import type { Strategy } from '../../machinery/resource-definition';
import { QuantityError, canonicalQuantity } from '../../machinery/quantity';
import { errors } from '../../machinery/status';
import { CsiStorageCapacityObject, quantityFields, validateCsiStorageCapacity, validateCsiStorageCapacityUpdate } from './csi-storage-capacity.validation';

export const csiStorageCapacityStrategy: Strategy = {
  applyDefaults(obj: KObject) {
    const cap = obj as CsiStorageCapacityObject;
    if (cap.nodeTopology === null) delete cap.nodeTopology;
    for (const f of quantityFields) {
      const q = cap[f];
      if (q === null) delete cap[f];
      else if (q !== undefined) {
        try {
          canonicalQuantity(q);
        } catch (e) {
          if (!(e instanceof QuantityError)) throw e;
          throw errors.badRequest(`CSIStorageCapacity in version "v1" cannot be handled as a CSIStorageCapacity: ${e.message}`);
        }
      }
    }
  },

  validate: (obj) => validateCsiStorageCapacity(obj),
  validateUpdate: (obj, old) => validateCsiStorageCapacityUpdate(obj, old),

  canonicalize(obj: KObject) {
    const cap = obj as CsiStorageCapacityObject;
    for (const f of quantityFields) {
      const q = cap[f];
      if (q !== null && q !== undefined) cap[f] = canonicalQuantity(q);
    }
  },
};
