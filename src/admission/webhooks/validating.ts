/**
 * ValidatingAdmissionWebhook, as upstream's plugin: the matching webhooks
 * are found first (any matching error refuses the request), then all are
 * called at once; the request is refused with the first error to come back
 * (a denial, a call failure under failurePolicy Fail, a refused dry run),
 * and call failures under Ignore are only noted in the audit annotations.
 */
import { ApiError, errors } from '../../machinery/status';
import type { AdmissionAttributes, AdmissionPlugin } from '../../registry/admission-chain';
import { andThen, type MaybePromise } from '../../machinery/maybe-async';
import type { WebhookPort } from '../../ports/webhook.port';
import { addAuditAnnotation, RequestDeadlines, WebhookCaller, type WebhookPluginOptions } from './invoke';
import { RequestScope, type Invocation } from './request-scope';
import { isExemptFromWebhooks } from './rules';
import { CallingWebhookError, denial } from './webhook-errors';
import { WebhookSource, type WebhookEnv } from './webhook-source';
import type { Webhook } from './configuration';

const failedOpenAnnotation = 'failed-open.validating.webhook.admission.k8s.io/';

export class ValidatingAdmissionWebhook implements AdmissionPlugin {
  readonly name = 'ValidatingAdmissionWebhook';
  private readonly source: WebhookSource;
  private readonly caller: WebhookCaller;

  constructor(
    private readonly env: WebhookEnv,
    webhooks: WebhookPort,
    options: WebhookPluginOptions = {},
  ) {
    this.source = new WebhookSource(env.registry, 'validatingwebhookconfigurations', env.changes);
    this.caller = new WebhookCaller({ env, webhooks, deadlines: options.deadlines ?? new RequestDeadlines() });
  }

  validate(a: AdmissionAttributes): MaybePromise<void> {
    if (isExemptFromWebhooks(a.definition)) return;
    return andThen(this.source.webhooks(), (hooks) => (hooks.length === 0 ? undefined : this.call(a, hooks)));
  }

  private async call(a: AdmissionAttributes, hooks: readonly Webhook[]): Promise<void> {
    const scope = new RequestScope(a, this.env.registry(), this.env.authorizer());
    const relevant: Invocation[] = [];
    for (const hook of hooks) {
      const inv = await scope.shouldCall(hook);
      if (inv) relevant.push(inv);
    }
    if (relevant.length === 0) return;
    if (this.caller.remainingMs(a.options) <= 0) throw errors.timeout('request did not complete within requested timeout');
    // In the order they come back: upstream answers with the first error its goroutines report.
    const failures: ApiError[] = [];
    await Promise.all(
      relevant.map(async (inv, index) => {
        const failure = await this.check(scope, inv, index);
        if (failure) failures.push(failure);
      }),
    );
    if (failures.length) throw failures[0];
  }

  /** One webhook's verdict: undefined to allow, else the error it refuses the request with. */
  private async check(scope: RequestScope, inv: Invocation, index: number): Promise<ApiError | undefined> {
    const { hook } = inv;
    const a = scope.attributes;
    try {
      const response = await this.caller.call(scope, inv, false, a.object, a.oldObject);
      return response.allowed ? undefined : denial(hook.name, response.status);
    } catch (e) {
      if (e instanceof CallingWebhookError) {
        if (!hook.failOpen) return e.toApiError();
        addAuditAnnotation(a.options, `${failedOpenAnnotation}round_0_index_${index}`, hook.name);
        return undefined;
      }
      if (e instanceof ApiError) return e;
      // An unexpected failure is handled as upstream handles a panicking call: failing open or closed per policy.
      if (!hook.failOpen) return errors.internal(`ValidatingAdmissionWebhook/${hook.name} has panicked: ${(e as Error).message}`);
      addAuditAnnotation(a.options, `${failedOpenAnnotation}round_0_index_${index}`, hook.name);
      return undefined;
    }
  }
}
