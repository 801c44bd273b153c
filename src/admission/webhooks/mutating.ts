/**
 * MutatingAdmissionWebhook, as upstream's plugin: the matching webhooks are
 * called one after another, in order, each seeing the object as the ones
 * before it left it; a JSONPatch answer changes the request's object. When a
 * webhook changed the object, the webhooks called before it with
 * reinvocationPolicy IfNeeded are called once more, in a second round, as
 * upstream's reinvocation does (our built-in mutating plugins run before
 * the webhooks and change no objects, so only webhooks take part).
 */
import { errors } from '../../machinery/status';
import type { AdmissionAttributes, AdmissionPlugin } from '../../registry/admission-chain';
import { andThen, type MaybePromise } from '../../machinery/maybe-async';
import type { WebhookPort } from '../../ports/webhook.port';
import type { Webhook } from './configuration';
import { addAuditAnnotation, RequestDeadlines, WebhookCaller, type WebhookPluginOptions } from './invoke';
import { applyWebhookPatch, decodePatch, replaceContents } from './patch';
import { RequestScope, type Invocation } from './request-scope';
import { isExemptFromWebhooks } from './rules';
import { CallingWebhookError, denial } from './webhook-errors';
import { WebhookSource, type WebhookEnv } from './webhook-source';

/** Upstream's webhookReinvokeContext: who was called with IfNeeded, and who is to be called again. */
class Reinvocation {
  previouslyInvoked = new Set<string>();
  reinvoke = new Set<string>();
  shouldReinvoke = false;

  /** The object changed: every IfNeeded webhook called so far is called again in the next round. */
  changed(): void {
    for (const uid of this.previouslyInvoked) this.reinvoke.add(uid);
    this.previouslyInvoked.clear();
    this.shouldReinvoke = true;
  }
}

const mutationAnnotation = 'mutation.webhook.admission.k8s.io/';
const failedOpenAnnotation = 'failed-open.mutation.webhook.admission.k8s.io/';

export class MutatingAdmissionWebhook implements AdmissionPlugin {
  readonly name = 'MutatingAdmissionWebhook';
  private readonly source: WebhookSource;
  private readonly caller: WebhookCaller;

  constructor(
    private readonly env: WebhookEnv,
    webhooks: WebhookPort,
    options: WebhookPluginOptions = {},
  ) {
    this.source = new WebhookSource(env.registry, 'mutatingwebhookconfigurations', env.changes);
    this.caller = new WebhookCaller({ env, webhooks, deadlines: options.deadlines ?? new RequestDeadlines() });
  }

  admit(a: AdmissionAttributes): MaybePromise<void> {
    if (isExemptFromWebhooks(a.definition)) return;
    return andThen(this.source.webhooks(), (hooks) => (hooks.length === 0 ? undefined : this.call(a, hooks)));
  }

  private async call(a: AdmissionAttributes, hooks: readonly Webhook[]): Promise<void> {
    const scope = new RequestScope(a, this.env.registry(), this.env.authorizer());
    const state = new Reinvocation();
    await this.round(scope, hooks, 0, state);
    if (state.shouldReinvoke) await this.round(scope, hooks, 1, state);
  }

  private async round(scope: RequestScope, hooks: readonly Webhook[], round: number, state: Reinvocation): Promise<void> {
    const options = scope.attributes.options;
    for (const [i, hook] of hooks.entries()) {
      const inv = await scope.shouldCall(hook);
      // A webhook is never called for the first time in the second round.
      if (!inv || (round === 1 && !state.reinvoke.has(hook.uid))) continue;
      const at = `round_${round}_index_${i}`;
      let changed = false;
      let failure: unknown;
      try {
        changed = await this.mutate(scope, inv);
      } catch (e) {
        failure = e;
      }
      addAuditAnnotation(options, mutationAnnotation + at, JSON.stringify({ configuration: hook.configurationName, webhook: hook.name, mutated: changed }));
      if (changed) state.changed();
      if (hook.reinvokeIfNeeded) state.previouslyInvoked.add(hook.uid);
      if (failure === undefined) continue;
      if (!(failure instanceof CallingWebhookError)) throw failure;
      if (!hook.failOpen) throw failure.toApiError();
      addAuditAnnotation(options, failedOpenAnnotation + at, hook.name);
      // The webhook's own deadline passing is ignored; the request's is not.
      if (this.caller.remainingMs(options) <= 0) throw errors.timeout('request did not complete within requested timeout');
    }
  }

  /** Calls the webhook and applies its patch; whether the object changed. */
  private async mutate(scope: RequestScope, inv: Invocation): Promise<boolean> {
    const a = scope.attributes;
    const { hook } = inv;
    const response = await this.caller.call(scope, inv, true, a.object, a.oldObject);
    if (!response.allowed) throw denial(hook.name, response.status);
    const ops = decodePatch(hook.name, response);
    if (ops.length === 0) return false;
    if (!a.object) throw errors.internal(`admission webhook "${hook.name}" attempted to modify the object, which is not supported for this operation`);
    if (response.patchType !== 'JSONPatch') throw new CallingWebhookError(hook.name, `unsupported patch type "${response.patchType ?? ''}"`);
    const view = scope.view(inv.matched, a.object)!;
    const { object, changed } = applyWebhookPatch(inv.matched.def, view, ops);
    if (changed) replaceContents(a.object, scope.ownForm(inv.matched, object));
    return changed;
  }
}
