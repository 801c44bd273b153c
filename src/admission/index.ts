/** The admission chain the composition root installs: the chosen plugins, in upstream's order. */
import { AdmissionChain, type AdmissionPlugin } from '../registry/admission-chain';
import type { Registry } from '../registry/registry';
import type { AuthorizerPort } from '../ports/authorizer.port';
import type { ClockPort } from '../ports/clock.port';
import type { RandomPort } from '../ports/random.port';
import type { WebhookPort } from '../ports/webhook.port';
import { SYSTEM_NAMESPACES } from '../resources/namespace';
import { NamespaceAutoProvision } from './namespace-autoprovision';
import { NamespaceExists } from './namespace-exists';
import { NamespaceLifecycle } from './namespace-lifecycle';
import { Namespaces } from './namespaces';
import { ValidatingAdmissionPolicy } from './policy';
import { admissionWebhookPlugins } from './webhooks';
import type { AdmissionPluginName } from './plugin-names';
import type { ConfigurationChanges } from './config-changes';

export { ADMISSION_PLUGIN_ORDER, DEFAULT_ADMISSION_PLUGINS, AdmissionConfigError, selectAdmissionPlugins, type AdmissionPluginName } from './plugin-names';

export interface AdmissionDeps {
  /** The registry (passed lazily: it is built with its admission chain). */
  registry: () => Registry;
  clock: ClockPort;
  random: RandomPort;
  /** Answers CEL's `authorizer` checks in policies and webhook match conditions. */
  authorizer: AuthorizerPort;
  /** Calls admission webhooks. */
  webhooks: WebhookPort;
  /** Tells the plugins when the kinds they read (configurations, namespaces) changed. */
  changes?: ConfigurationChanges;
}

export function admissionChain(enabled: readonly AdmissionPluginName[], deps: AdmissionDeps): AdmissionChain {
  const namespaces = new Namespaces(deps.registry, deps.clock, deps.changes);
  const authorizer = () => deps.authorizer;
  // The webhook pair shares each request's deadline, so it is built once for both names.
  let webhookPair: ReturnType<typeof admissionWebhookPlugins> | undefined;
  const webhookPlugins = () => (webhookPair ??= admissionWebhookPlugins({ registry: deps.registry, clock: deps.clock, random: deps.random, authorizer, changes: deps.changes }, deps.webhooks));
  const build: Record<AdmissionPluginName, () => AdmissionPlugin> = {
    NamespaceAutoProvision: () => new NamespaceAutoProvision(namespaces),
    NamespaceLifecycle: () => new NamespaceLifecycle(namespaces, new Set(SYSTEM_NAMESPACES)),
    NamespaceExists: () => new NamespaceExists(namespaces),
    MutatingAdmissionWebhook: () => webhookPlugins().mutating,
    ValidatingAdmissionPolicy: () => new ValidatingAdmissionPolicy({ registry: deps.registry, namespaces, authorizer, changes: deps.changes }),
    ValidatingAdmissionWebhook: () => webhookPlugins().validating,
  };
  return new AdmissionChain(enabled.map((name) => build[name]()));
}
