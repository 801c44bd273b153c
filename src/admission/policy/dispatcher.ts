/**
 * One request against the policies in force (validating/dispatcher.go): for each policy
 * whose matchConstraints match, each binding whose matchResources match, each param, the
 * policy's decisions go where the binding's validationActions send them: Deny fails the
 * request (the first denial is the answer, its reason the Status reason and code), Warn
 * adds a `Warning`, Audit an audit annotation. Configuration errors (params missing,
 * paramKind not served, selectors) follow the policy's failurePolicy.
 */
import type { CelValue } from '../../machinery/cel';
import type { KObject } from '../../machinery/object';
import type { ResourceDefinition } from '../../machinery/resource-definition';
import { errors } from '../../machinery/status';
import type { AuthorizerPort } from '../../ports/authorizer.port';
import type { AdmissionAttributes } from '../../registry/admission-chain';
import { KindInputs, namespaceValue, objectValue, PolicyInputs } from './inputs';
import { matches, type NamespaceLabels, type RequestView } from './matching';
import { collectParams, type PolicyRegistry } from './params';
import type { BindingObject } from './policy-types';
import type { PolicyHook } from './source';
import { validate, type Decision } from './validator';

/** Reads namespaces as upstream's lister and client do: the cache, then storage. */
export interface NamespaceReader {
  cached(name: string): Promise<KObject | undefined>;
  live(name: string): Promise<KObject | undefined>;
  /** What the last look at `name` found while no namespace has changed since; undefined when unknown. */
  remembered?(name: string): { object: KObject | undefined } | undefined;
}

export interface DispatchContext {
  registry: PolicyRegistry;
  namespaces: NamespaceReader;
  authorizer: AuthorizerPort;
}

interface Denial {
  policy: string;
  binding?: string;
  decision: Decision;
}

const VALIDATION_FAILURE_KEY = 'validation.policy.admission.k8s.io/validation_failure';
const MAX_AUDIT_VALUE_BYTES = 10 * 1024;

const REASON_CODES: Record<string, number> = { Forbidden: 403, Unauthorized: 401, RequestEntityTooLarge: 413, Invalid: 422 };

/** Go's encoding/json text: HTML-sensitive characters escaped. */
const goJson = (v: unknown) => JSON.stringify(v).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** Audit annotations are never overwritten: the first value a request gets for a key stays. */
function addAnnotation(a: AdmissionAttributes, key: string, value: string): void {
  const annotations = (a.options.auditAnnotations ??= {});
  if (!(key in annotations)) annotations[key] = value;
}

function truncateBytes(s: string, max: number): string {
  const b = Buffer.from(s);
  return b.length <= max ? s : b.subarray(0, max).toString();
}

export function requestView(a: AdmissionAttributes): RequestView {
  const isNamespace = a.definition.group === '' && a.definition.kind === 'Namespace';
  // Upstream's attributes carry a namespace's own name as its namespace once it exists.
  const namespace = isNamespace ? (a.operation === 'CREATE' ? '' : a.name) : (a.namespace ?? '');
  return { operation: a.operation, definition: a.definition, namespace, name: a.name, subresource: a.subresource ?? '', object: a.object, oldObject: a.oldObject };
}

/** One request's pass over the policies: what it looked up and what it decided, kept in fields (no closures per write). */
class PolicyRun implements NamespaceLabels {
  readonly view: RequestView;
  readonly denials: Denial[] = [];
  private namespaces?: Map<string, Promise<KObject | undefined>>;
  private inputsDef?: ResourceDefinition;
  private inputs?: KindInputs;

  constructor(
    readonly a: AdmissionAttributes,
    readonly ctx: DispatchContext,
  ) {
    this.view = requestView(a);
  }

  /** The cache, then storage; once per name and request. */
  namespaceOf(name: string): Promise<KObject | undefined> {
    const namespaces = (this.namespaces ??= new Map());
    let p = namespaces.get(name);
    if (!p) namespaces.set(name, (p = this.ctx.namespaces.cached(name).then((ns) => ns ?? this.ctx.namespaces.live(name))));
    return p;
  }

  /** Without a promise when the namespace is remembered (nearly always): every write into a namespace comes here. */
  namespaceNow(name: string): KObject | Promise<KObject | undefined> {
    return this.ctx.namespaces.remembered?.(name)?.object ?? this.namespaceOf(name);
  }

  async labelsOf(name: string): Promise<Record<string, string> | undefined> {
    const ns = await this.namespaceOf(name);
    return ns ? (ns.metadata.labels ?? {}) : undefined;
  }

  /** A request's variables for the kind it is matched as; most requests are matched as one kind only. */
  inputsFor(def: ResourceDefinition): KindInputs {
    if (this.inputsDef !== def || !this.inputs) {
      this.inputsDef = def;
      this.inputs = new KindInputs(this.a, def, this.view.namespace, this.ctx.authorizer);
    }
    return this.inputs;
  }

  configError(hook: PolicyHook, binding: BindingObject | undefined, why: string): void {
    if (hook.failurePolicy === 'Ignore') return;
    const message = hook.failurePolicy !== 'Fail' ? `unrecognized failure policy: '${hook.failurePolicy}'` : `failed to configure ${binding ? 'binding' : 'policy'}: ${why}`;
    this.denials.push({ policy: hook.name, binding: binding?.metadata.name, decision: { action: 'Deny', evaluation: 'Error', message } });
  }
}

export async function dispatch(a: AdmissionAttributes, hooks: readonly PolicyHook[], ctx: DispatchContext): Promise<void> {
  const run = new PolicyRun(a, ctx);
  const { view, denials } = run;
  const served = ctx.registry.definitions;

  for (const hook of hooks) {
    if (!hook.matchConstraints) continue; // "policy contained no match constraints": never matches
    const pending = matches(hook.matchConstraints, view, served, run);
    const m = pending instanceof Promise ? await pending : pending;
    if (!m.matches) continue;
    if (hook.configurationError) {
      run.configError(hook, undefined, hook.configurationError);
      continue;
    }
    let collected: Map<string, string[]> | undefined; // audit annotations, when the policy has some
    for (const { binding, matchResources } of hook.bindings) {
      const bindingName = binding.metadata.name ?? '';
      if (matchResources) {
        const pending = matches(matchResources, view, served, run);
        const bm = pending instanceof Promise ? await pending : pending;
        if (bm.error) {
          run.configError(hook, binding, bm.error.message);
          continue;
        }
        if (!bm.matches) continue;
      }
      let params: readonly (KObject | null)[];
      try {
        const pending = collectParams(ctx.registry, hook.policy.spec?.paramKind, hook.paramDefinition, binding.spec?.paramRef, view.namespace);
        params = pending instanceof Promise ? await pending : pending;
      } catch (e) {
        run.configError(hook, binding, (e as Error).message);
        continue;
      }
      if (!params.length) continue;
      // The namespace of a Namespace request is itself: upstream leaves namespaceObject null then.
      const nsName = view.definition.kind === 'Namespace' && view.definition.group === '' ? '' : view.namespace;
      let ns: KObject | undefined;
      if (nsName) {
        const pending = run.namespaceNow(nsName);
        ns = pending instanceof Promise ? await pending : pending;
        if (!ns) throw errors.notFound({ group: '', plural: 'namespaces' }, nsName);
      }
      const base = run.inputsFor(m.definition);
      const nsValue = namespaceValue(ns);
      const actions = binding.spec?.validationActions ?? [];
      for (const param of params) {
        const p = paramValue(param);
        const result = validate(hook.compiled, hook.failurePolicy, new PolicyInputs(base, nsValue, p, true));
        for (let i = 0; i < result.decisions.length; i++) {
          const d = result.decisions[i];
          if (d.action !== 'Deny') continue;
          for (const action of actions) {
            if (action === 'Deny') denials.push({ policy: hook.name, binding: bindingName, decision: d });
            else if (action === 'Audit') {
              const value = [{ message: d.message, policy: binding.spec?.policyName ?? '', binding: bindingName, expressionIndex: i, validationActions: actions }];
              addAnnotation(a, VALIDATION_FAILURE_KEY, goJson(value));
            } else if (action === 'Warn') {
              const w = `Validation failed for ValidatingAdmissionPolicy '${hook.name}' with binding '${bindingName}': ${d.message}`;
              if (!a.options.warnings.includes(w)) a.options.warnings.push(w);
            }
          }
        }
        for (const ann of result.auditAnnotations) {
          if (ann.action === 'Publish') {
            collected ??= new Map();
            const values = collected.get(ann.key) ?? [];
            const value = truncateBytes(ann.value, MAX_AUDIT_VALUE_BYTES);
            if (!values.includes(value)) values.push(value);
            collected.set(ann.key, values);
          } else if (ann.action === 'Error') {
            denials.push({ policy: hook.name, binding: bindingName, decision: { action: 'Deny', evaluation: 'Error', message: ann.error } });
          }
        }
      }
    }
    if (collected) for (const [key, values] of collected) addAnnotation(a, `${hook.name}/${key}`, values.join(', '));
  }
  if (denials.length) throw denialError(a, denials[0]);
}

function denialError(a: AdmissionAttributes, d: Denial): Error {
  const message =
    d.binding !== undefined
      ? `ValidatingAdmissionPolicy '${d.policy}' with binding '${d.binding}' denied request: ${d.decision.message}`
      : `ValidatingAdmissionPolicy '${d.policy}' denied request: ${d.decision.message}`;
  // admission.NewForbidden names the object as the request does, or by what it will be named.
  const name = a.name || a.object?.metadata.name || a.object?.metadata.generateName || 'Unknown';
  const err = errors.forbidden(a.definition, name, message);
  const reason = d.decision.reason || 'Invalid';
  err.status.reason = reason;
  err.status.code = REASON_CODES[reason] ?? 422;
  err.status.details!.causes = [{ message }];
  return err;
}

const paramValues = new WeakMap<KObject, CelValue>();

function paramValue(param: KObject | null): CelValue {
  if (!param) return null as unknown as CelValue;
  let v = paramValues.get(param);
  if (v === undefined) paramValues.set(param, (v = objectValue(param)));
  return v;
}
