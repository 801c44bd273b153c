/**
 * Webhook configuration strategy, as upstream's: the v1 defaults of each
 * webhook (failurePolicy Fail, matchPolicy Equivalent, selectors {},
 * timeoutSeconds 10, reinvocationPolicy Never for mutating ones, rule scope
 * "*", service port 443) on every decode. Generation is 1 on create and
 * bumped when the webhooks change (the definition's generationFields).
 */
import { isPlainObject, type KObject } from '../../machinery/object';
import type { Strategy } from '../../machinery/resource-definition';
import type { RuleObject } from './admission-rules.validation';
import type { WebhookConfigurationObject, WebhookObject } from './validating-webhook-configuration.validation';

const unset = (v: unknown) => v === undefined || v === null;

/** SetDefaults_Rule: scope "*". */
export function defaultRules(rules: RuleObject[] | null | undefined): void {
  for (const rule of rules ?? []) if (isPlainObject(rule) && unset(rule.scope)) rule.scope = '*';
}

function defaultWebhook(hook: WebhookObject, mutating: boolean): void {
  if (unset(hook.failurePolicy)) hook.failurePolicy = 'Fail';
  if (unset(hook.matchPolicy)) hook.matchPolicy = 'Equivalent';
  if (unset(hook.namespaceSelector)) hook.namespaceSelector = {};
  if (unset(hook.objectSelector)) hook.objectSelector = {};
  if (unset(hook.timeoutSeconds)) hook.timeoutSeconds = 10;
  if (mutating && unset(hook.reinvocationPolicy)) hook.reinvocationPolicy = 'Never';
  defaultRules(hook.rules);
  const service = hook.clientConfig?.service;
  if (isPlainObject(service) && unset(service.port)) service.port = 443;
}

function applyDefaults(mutating: boolean) {
  return (obj: KObject): void => {
    for (const hook of (obj as WebhookConfigurationObject).webhooks ?? []) if (isPlainObject(hook)) defaultWebhook(hook, mutating);
  };
}

export function webhookConfigurationStrategy(mutating: boolean, validate: Strategy['validate'], validateUpdate: Strategy['validateUpdate']): Strategy {
  return { applyDefaults: applyDefaults(mutating), validate, validateUpdate };
}
