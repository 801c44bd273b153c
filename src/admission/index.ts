/** The admission chain the composition root installs: the chosen plugins, in upstream's order. */
import { AdmissionChain, type AdmissionPlugin } from '../registry/admission-chain';
import type { Registry } from '../registry/registry';
import type { ClockPort } from '../ports/clock.port';
import { SYSTEM_NAMESPACES } from '../resources/namespace';
import { NamespaceAutoProvision } from './namespace-autoprovision';
import { NamespaceExists } from './namespace-exists';
import { NamespaceLifecycle } from './namespace-lifecycle';
import { Namespaces } from './namespaces';
import type { AdmissionPluginName } from './plugin-names';

export { ADMISSION_PLUGIN_ORDER, DEFAULT_ADMISSION_PLUGINS, AdmissionConfigError, selectAdmissionPlugins, type AdmissionPluginName } from './plugin-names';

export function admissionChain(enabled: readonly AdmissionPluginName[], registry: () => Registry, clock: ClockPort): AdmissionChain {
  const namespaces = new Namespaces(registry, clock);
  const build: Record<AdmissionPluginName, () => AdmissionPlugin> = {
    NamespaceAutoProvision: () => new NamespaceAutoProvision(namespaces),
    NamespaceLifecycle: () => new NamespaceLifecycle(namespaces, new Set(SYSTEM_NAMESPACES)),
    NamespaceExists: () => new NamespaceExists(namespaces),
  };
  return new AdmissionChain(enabled.map((name) => build[name]()));
}
