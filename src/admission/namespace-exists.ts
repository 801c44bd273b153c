/** NamespaceExists, as upstream's plugin: a write into a namespace that does not exist is a 404. */
import type { AdmissionAttributes, AdmissionPlugin } from '../registry/admission-chain';
import { isNamespaceKind, Namespaces } from './namespaces';

export class NamespaceExists implements AdmissionPlugin {
  readonly name = 'NamespaceExists';

  constructor(private readonly namespaces: Namespaces) {}

  async validate(a: AdmissionAttributes): Promise<void> {
    if (!a.namespace || isNamespaceKind(a.definition)) return;
    if (await this.namespaces.cached(a.namespace)) return;
    if (await this.namespaces.live(a.namespace)) return;
    throw this.namespaces.notFound(a.namespace);
  }
}
