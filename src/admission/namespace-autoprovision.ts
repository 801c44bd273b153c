/**
 * NamespaceAutoProvision, as upstream's plugin: creating an object in a
 * namespace that does not exist creates the namespace first (not for dry
 * runs). On by default here, so that clients written before namespaces
 * existed on this server keep working.
 */
import { ApiError, errors } from '../machinery/status';
import type { AdmissionAttributes, AdmissionPlugin } from '../registry/admission-chain';
import { isNamespaceKind, Namespaces } from './namespaces';

export class NamespaceAutoProvision implements AdmissionPlugin {
  readonly name = 'NamespaceAutoProvision';

  constructor(private readonly namespaces: Namespaces) {}

  async admit(a: AdmissionAttributes): Promise<void> {
    if (a.dryRun || a.operation !== 'CREATE' || !a.namespace || isNamespaceKind(a.definition)) return;
    if (await this.namespaces.cached(a.namespace)) return;
    try {
      await this.namespaces.create(a.namespace);
    } catch (e) {
      // Only a refusal of the namespace is a refusal of the object; storage timing out or down answers as such (504, 503).
      if (!(e instanceof ApiError)) throw e;
      throw errors.forbidden(a.definition, a.name, e.message);
    }
  }
}
