/**
 * The webhooks configured now, read through the registry (the watch cache's
 * list at resourceVersion 0) on every admission call. This is on every
 * write's path, so a list that holds what it held (list-snapshot.ts) is
 * answered from the last compilation without decoding anything, and when it
 * changed, only configurations whose own resourceVersion changed are
 * compiled again.
 */
import type { ResourceDefinition } from '../../machinery/resource-definition';
import type { Registry } from '../../registry/registry';
import type { AuthorizerPort } from '../../ports/authorizer.port';
import type { ClockPort } from '../../ports/clock.port';
import type { RandomPort } from '../../ports/random.port';
import { ChangeFlag, type ConfigurationChanges } from '../config-changes';
import { seenOf, unchanged, type Seen } from '../list-snapshot';
import type { ListResult } from '../../registry/results';
import { compileConfiguration, type Webhook, type WebhookConfigurationJson } from './configuration';
import type { MaybePromise } from '../../machinery/maybe-async';

/** What the webhook plugins use of the registry (a Registry is one). */
export type WebhookRegistry = Pick<Registry, 'definitions' | 'list' | 'get'> & {
  readonly served: { readonly version: number };
};

/** What the webhook plugins are built over: the registry, and the ports for time, uids and CEL's authorizer. */
export interface WebhookEnv {
  registry: () => WebhookRegistry;
  clock: ClockPort;
  random: RandomPort;
  /** Answers match conditions' `authorizer` checks (read per request: the authorizer may be swapped). */
  authorizer: () => AuthorizerPort;
  /** When configurations changed (without it, every request reads them). */
  changes?: ConfigurationChanges;
}

export const ADMISSION_REGISTRATION_GROUP = 'admissionregistration.svc.io';

export type WebhookKind = 'mutatingwebhookconfigurations' | 'validatingwebhookconfigurations';

interface Compiled {
  def: ResourceDefinition;
  seen: Seen;
  webhooks: readonly Webhook[];
}

export class WebhookSource {
  private definition: { setVersion: number; def: ResourceDefinition | undefined } | undefined;
  private compiled: Compiled | undefined;
  /** Compiled webhooks per configuration uid, with the configuration's resourceVersion they came from. */
  private perConfiguration = new Map<string, { resourceVersion: string; webhooks: Webhook[] }>();

  private readonly flag: ChangeFlag;

  constructor(
    private readonly registry: () => WebhookRegistry,
    private readonly plural: WebhookKind,
    changes?: ConfigurationChanges,
  ) {
    this.flag = new ChangeFlag(changes);
  }

  /** The configuration kind while it is served (found again only when the served kinds change). */
  private def(): ResourceDefinition | undefined {
    const r = this.registry();
    if (this.definition?.setVersion !== r.served.version) {
      const def = r.definitions.find((d) => d.group === ADMISSION_REGISTRATION_GROUP && d.plural === this.plural && d.version === 'v1');
      this.definition = { setVersion: r.served.version, def };
    }
    return this.definition.def;
  }

  /** At once while no configuration changed since the last look (every write asks), else after a list. */
  webhooks(): MaybePromise<readonly Webhook[]> {
    const def = this.def();
    if (!def) return [];
    const last = this.compiled;
    if (!this.flag.take([def]) && last?.def === def) return last.webhooks;
    return this.listed(def, last);
  }

  private async listed(def: ResourceDefinition, last: WebhookSource['compiled']): Promise<readonly Webhook[]> {
    let list: ListResult;
    try {
      list = await this.registry().list(def, { resourceVersion: '0' });
    } catch (e) {
      this.flag.retry();
      throw e;
    }
    if (last && last.def === def && unchanged(last.seen, list)) return last.webhooks;
    const configs = (list.items as WebhookConfigurationJson[]).slice().sort((a, b) => byName(a.metadata.name, b.metadata.name));
    const next = new Map<string, { resourceVersion: string; webhooks: Webhook[] }>();
    const webhooks: Webhook[] = [];
    for (const config of configs) {
      const key = config.metadata.uid ?? config.metadata.name ?? '';
      const version = config.metadata.resourceVersion ?? '';
      const known = this.perConfiguration.get(key);
      const entry = known && version !== '' && known.resourceVersion === version ? known : { resourceVersion: version, webhooks: compileConfiguration(config) };
      next.set(key, entry);
      webhooks.push(...entry.webhooks);
    }
    this.perConfiguration = next;
    this.compiled = { def, seen: seenOf(list), webhooks };
    return webhooks;
  }
}

/** Go's string order (names are DNS subdomains: ASCII, so code units order as bytes do). */
function byName(a: string | undefined, b: string | undefined): number {
  const x = a ?? '';
  const y = b ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
}
