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

  admit(a: AdmissionAttributes): void | Promise<void> {
    if (a.dryRun || a.operation !== 'CREATE' || !a.namespace || isNamespaceKind(a.definition)) return;
    // A namespace seen since the last change to any namespace is there: nothing to wait for.
    if (this.namespaces.remembered(a.namespace)?.object) return;
    return this.provision(a, a.namespace);
  }

  private async provision(a: AdmissionAttributes, namespace: string): Promise<void> {
    if (await this.namespaces.cached(namespace)) return;
    try {
      await this.namespaces.create(namespace);
    } catch (e) {
      // Only a refusal of the namespace is a refusal of the object; storage timing out or down answers as such (504, 503).
      if (!(e instanceof ApiError)) throw e;
      throw errors.forbidden(a.definition, a.name, e.message);
    }
  }
}
