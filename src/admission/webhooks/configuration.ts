/**
 * The webhooks of Validating/MutatingWebhookConfiguration objects, read as
 * upstream's admissionregistration/v1 JSON (plain objects; the kinds'
 * strategies validate and default them on write) and compiled once per
 * object version: selectors parsed, match conditions compiled, upstream's v1
 * defaults applied where a field is absent. Webhooks are ordered as upstream
 * merges them: configurations by name, then each one's webhooks in order.
 */
import type { KObject } from '../../machinery/object';
import { labelSelectorAsSelector, type MetaLabelSelector } from '../../machinery/label-selector';
import type { LabelSelector } from '../../machinery/label-requirements';
import type { WebhookClientConfig } from '../../ports/webhook.port';
import type { RuleObject, WebhookObject } from '../../resources/validating-webhook-configuration';
import { compileConditions, type CompiledCondition, type MatchConditionJson } from './match-conditions';

/** Rules as stored (validated on write by the configuration kinds). */
export type RuleJson = RuleObject;

/** A webhook as stored: validation guarantees its name and its match conditions' names and expressions. */
export type WebhookJson = Omit<WebhookObject, 'name' | 'matchConditions'> & { name: string; matchConditions?: MatchConditionJson[] | null };

export interface WebhookConfigurationJson extends KObject {
  webhooks?: WebhookJson[] | null;
}

export interface Rule {
  operations: readonly string[];
  apiGroups: readonly string[];
  apiVersions: readonly string[];
  resources: readonly string[];
  /** '*', 'Cluster' or 'Namespaced' ('*' when absent, upstream's default). */
  scope: string;
}

/** A selector, or why it could not be parsed (reported only for requests the webhook's rules match, as upstream). */
export type ParsedSelector = { selector: LabelSelector; error?: undefined } | { selector?: undefined; error: string };

export interface Webhook {
  /** Unique per webhook: `<configuration>/<webhook>/<n-th of that name>`, as upstream's accessors. */
  readonly uid: string;
  readonly name: string;
  readonly configurationName: string;
  readonly rules: readonly Rule[];
  /** failurePolicy Ignore: call failures are ignored. */
  readonly failOpen: boolean;
  /** matchPolicy Equivalent (the default): rules also match the request's equivalent resources. */
  readonly equivalent: boolean;
  readonly namespaceSelector: ParsedSelector;
  readonly objectSelector: ParsedSelector;
  readonly matchConditions: readonly CompiledCondition[];
  readonly sideEffects: string | undefined;
  readonly timeoutMs: number;
  /** The first AdmissionReview version the webhook accepts that this server sends. */
  readonly reviewVersion: 'v1' | 'v1beta1' | undefined;
  /** reinvocationPolicy IfNeeded (mutating webhooks). */
  readonly reinvokeIfNeeded: boolean;
  readonly client: WebhookClientConfig;
}

const defaultTimeoutSeconds = 10;

function parseSelector(sel: MetaLabelSelector | null | undefined): ParsedSelector {
  try {
    // An absent selector is upstream's default {}: everything.
    return { selector: labelSelectorAsSelector(sel ?? {}) };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

const strings = (v: string[] | null | undefined): readonly string[] => (Array.isArray(v) ? v : []);

function clientConfig(c: WebhookJson['clientConfig']): WebhookClientConfig {
  const out: WebhookClientConfig = {};
  if (c?.url) out.url = c.url;
  const svc = c?.service;
  // Validation requires a service's namespace and name; its port defaults to 443.
  if (svc) out.service = { namespace: svc.namespace ?? '', name: svc.name ?? '', path: svc.path ?? undefined, port: svc.port ?? undefined };
  // caBundle is bytes in JSON (base64 of PEM text); the port wants the PEM.
  if (c?.caBundle) out.caBundle = Buffer.from(c.caBundle, 'base64').toString('utf8');
  return out;
}

function compileWebhook(config: string, hook: WebhookJson, uid: string): Webhook {
  const versions = strings(hook.admissionReviewVersions);
  return {
    uid,
    name: hook.name,
    configurationName: config,
    rules: (hook.rules ?? []).map((r) => ({
      operations: strings(r.operations),
      apiGroups: strings(r.apiGroups),
      apiVersions: strings(r.apiVersions),
      resources: strings(r.resources),
      scope: r.scope ?? '*',
    })),
    failOpen: hook.failurePolicy === 'Ignore',
    equivalent: (hook.matchPolicy ?? 'Equivalent') === 'Equivalent',
    namespaceSelector: parseSelector(hook.namespaceSelector),
    objectSelector: parseSelector(hook.objectSelector),
    matchConditions: compileConditions(hook.matchConditions ?? []),
    sideEffects: hook.sideEffects ?? undefined,
    timeoutMs: (hook.timeoutSeconds ?? defaultTimeoutSeconds) * 1000,
    reviewVersion: versions.find((v): v is 'v1' | 'v1beta1' => v === 'v1' || v === 'v1beta1'),
    reinvokeIfNeeded: hook.reinvocationPolicy === 'IfNeeded',
    client: clientConfig(hook.clientConfig),
  };
}

/** One configuration's webhooks, compiled; same-named webhooks get distinct uids, as upstream numbers them. */
export function compileConfiguration(config: WebhookConfigurationJson): Webhook[] {
  const name = config.metadata.name ?? '';
  const seen = new Map<string, number>();
  return (config.webhooks ?? []).map((hook) => {
    const n = seen.get(hook.name) ?? 0;
    seen.set(hook.name, n + 1);
    return compileWebhook(name, hook, `${name}/${hook.name}/${n}`);
  });
}
