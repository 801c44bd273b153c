/**
 * One admission request as the webhooks see it, and upstream's
 * ShouldCallHook for each webhook: the rules (the request's own names, then
 * with matchPolicy Equivalent the equivalent resources), the object selector
 * (new or old object's labels), the namespace selector (the namespace's
 * labels through the registry; cluster-scoped objects other than namespaces
 * always match) and the match conditions. Selector errors only count when
 * the rules match, as upstream's order of checks has it.
 */
import { authorizerValue, resourceCheckValue, toCelValue } from '../../machinery/cel';
import type { AuthorizerPort } from '../../ports/authorizer.port';
import type { KObject } from '../../machinery/object';
import { ApiError, errors } from '../../machinery/status';
import type { AdmissionAttributes } from '../../registry/admission-chain';
import { namespaceDefinition } from '../../resources/namespace';
import { requestFacts, requestNamespace, type RequestFacts } from './admission-request';
import type { ParsedSelector, Webhook } from './configuration';
import { matchConditions } from './match-conditions';
import { convertObject, equivalentNames, namesOf, type ResourceName } from './resource-names';
import { ruleMatches, type RuleTarget } from './rules';
import type { WebhookRegistry } from './webhook-source';

export interface Invocation {
  hook: Webhook;
  /** The name the webhook's rule matched: the kind and form it is shown. */
  matched: ResourceName;
  facts: RequestFacts;
}

type Labels = Record<string, string> | undefined;

export class RequestScope {
  readonly own: ResourceName;
  private readonly ownNames: ResourceName[];
  private equivalents: ResourceName[] | undefined;
  private namespaceLabels: Promise<Labels> | undefined;
  readonly namespace: string;
  private readonly subresource: string;

  constructor(
    readonly attributes: AdmissionAttributes,
    private readonly registry: WebhookRegistry,
    private readonly authorizer: AuthorizerPort,
  ) {
    this.subresource = attributes.subresource ?? '';
    this.ownNames = namesOf(attributes.definition, this.subresource);
    this.own = this.ownNames[0];
    this.namespace = requestNamespace(attributes);
  }

  /** The object in the form the webhook matched it in (a copy only when that form differs). */
  view(matched: ResourceName, obj: KObject | undefined): KObject | undefined {
    return obj && convertObject(obj, this.attributes.definition, matched.def, matched.apiVersion);
  }

  /** A changed view back in the request's own form. */
  ownForm(matched: ResourceName, obj: KObject): KObject {
    return convertObject(obj, matched.def, this.attributes.definition, this.own.apiVersion);
  }

  private target(name: ResourceName): RuleTarget {
    return { operation: this.attributes.operation, resource: name.resource, subresource: this.subresource, namespace: this.namespace };
  }

  private matchRules(hook: Webhook): ResourceName | undefined {
    for (const rule of hook.rules) for (const name of this.ownNames) if (ruleMatches(rule, this.target(name))) return name;
    if (!hook.equivalent) return undefined;
    const r = this.registry;
    this.equivalents ??= equivalentNames(this.attributes.definition, this.subresource, r.definitions, r.served.version);
    // Earlier rules first, as upstream.
    for (const rule of hook.rules) for (const name of this.equivalents) if (ruleMatches(rule, this.target(name))) return name;
    return undefined;
  }

  /** The invocation of `hook` for this request, undefined when it does not apply; throws upstream's errors. */
  async shouldCall(hook: Webhook): Promise<Invocation | undefined> {
    const matched = this.matchRules(hook);
    if (!matched) return undefined;
    const a = this.attributes;
    const objectMatch = objectSelects(hook.objectSelector, a);
    if (objectMatch === false) return undefined;
    const namespaceMatch = await this.namespaceSelects(hook.namespaceSelector);
    if (namespaceMatch === false) return undefined;
    if (namespaceMatch instanceof ApiError) throw namespaceMatch;
    if (objectMatch instanceof ApiError) throw objectMatch;
    const facts = requestFacts(a, matched, this.own);
    if (hook.matchConditions.length) {
      const activation = {
        object: toCelValue(this.view(matched, a.object) ?? null),
        oldObject: toCelValue(this.view(matched, a.oldObject) ?? null),
        request: toCelValue(facts),
        ...this.authorizerVariables(),
      };
      const outcome = matchConditions(hook.matchConditions, activation, hook.failOpen);
      if (outcome.error !== undefined) throw errors.forbidden(a.definition, a.name, outcome.error);
      if (!outcome.matches) return undefined;
    }
    return { hook, matched, facts };
  }

  /** `authorizer` (checks as the request's user) and `authorizer.requestResource` (the request's own resource). */
  private authorizerVariables(): Record<string, unknown> {
    const a = this.attributes;
    const port = this.authorizer;
    const own = this.own.resource;
    return {
      authorizer: authorizerValue(a.user, port),
      'authorizer.requestResource': resourceCheckValue(a.user, port, {
        group: own.group,
        resource: own.resource,
        subresource: this.subresource,
        namespace: this.namespace,
        name: a.name,
      }),
    };
  }

  private async namespaceSelects(parsed: ParsedSelector): Promise<boolean | ApiError> {
    // A cluster-scoped object other than a namespace is never exempted by a namespace selector.
    if (this.namespace === '' && !isNamespaceKind(this.attributes)) return true;
    if (parsed.error !== undefined) return errors.internal(parsed.error);
    if (parsed.selector.isEmpty()) return true;
    try {
      return parsed.selector.matches(await this.labelsOfNamespace());
    } catch (e) {
      // A namespace that does not exist is its 404, as upstream; anything else an internal error.
      return e instanceof ApiError && e.code === 404 ? e : errors.internal((e as Error).message);
    }
  }

  /** The namespace's labels: a namespace being created or updated has them in the request; others are looked up once. */
  private labelsOfNamespace(): Promise<Labels> {
    const a = this.attributes;
    if (isNamespaceKind(a) && !this.subresource && (a.operation === 'CREATE' || a.operation === 'UPDATE')) return Promise.resolve(a.object?.metadata?.labels);
    return (this.namespaceLabels ??= this.lookUpNamespace(this.namespace));
  }

  private async lookUpNamespace(name: string): Promise<Labels> {
    const r = this.registry;
    const find = async (resourceVersion?: string) => {
      try {
        return (await r.get(namespaceDefinition, undefined, name, resourceVersion)).object;
      } catch (e) {
        if ((e as ApiError).status?.code === 404) return undefined;
        throw e;
      }
    };
    // The cache may lag behind storage: a namespace it does not know yet is read from storage before it counts as absent.
    const ns = (await find('0')) ?? (await find());
    if (!ns) throw errors.notFound(namespaceDefinition, name);
    return ns.metadata.labels;
  }
}

function isNamespaceKind(a: AdmissionAttributes): boolean {
  return a.definition.group === '' && a.definition.kind === 'Namespace';
}

/** The object selector's verdict on the new or the old object, or its parse error. */
function objectSelects(parsed: ParsedSelector, a: AdmissionAttributes): boolean | ApiError {
  if (parsed.error !== undefined) return errors.internal(parsed.error);
  const s = parsed.selector;
  // No object (the new one of a DELETE) matches nothing, whatever the selector.
  const match = (o: KObject | undefined) => o !== undefined && s.matches(o.metadata?.labels ?? {});
  return s.isEmpty() || match(a.object) || match(a.oldObject);
}
