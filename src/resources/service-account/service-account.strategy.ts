/** ServiceAccount strategy: secret references keep only their name, as upstream's. Nothing else is checked. */
import type { KObject } from '../../machinery/object';
import type { Strategy } from '../../machinery/resource-definition';

/** Upstream drops namespace, uid, kind etc. from every secrets entry on create and update. */
export function cleanSecretReferences(obj: KObject): void {
  if (!Array.isArray(obj.secrets)) return;
  obj.secrets = (obj.secrets as Array<{ name?: string } | null>).map((ref) => (ref?.name ? { name: ref.name } : {}));
}

export const serviceAccountStrategy: Strategy = {
  prepareForCreate: (obj) => cleanSecretReferences(obj),
  prepareForUpdate: (obj) => cleanSecretReferences(obj),
  applyDefaults(obj) {
    // JSON null is an unset field upstream: it is not stored.
    for (const f of ['automountServiceAccountToken', 'secrets', 'imagePullSecrets']) if (obj[f] === null) delete obj[f];
  },
  // Only ObjectMeta is validated upstream; the registry does that.
  validate: () => [],
  validateUpdate: () => [],
};
