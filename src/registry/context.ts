/** The ports and settings every registry operation shares. */
import type { StoragePort } from '../ports/storage.port';
import type { ClockPort } from '../ports/clock.port';
import type { CryptoPort } from '../ports/crypto.port';
import type { RandomPort } from '../ports/random.port';
import type { FeatureGates } from '../machinery/feature-gates';
import { alwaysAllow, type AuthorizerPort } from '../ports/authorizer.port';
import type { ResourceDefinition, StrategyContext, UserInfo } from '../machinery/resource-definition';
import type { AdmissionChain } from './admission-chain';

export interface RegistryDeps {
  storage: StoragePort;
  clock: ClockPort;
  random: RandomPort;
  crypto: CryptoPort;
  gates: FeatureGates;
  /** Permission checks of admission; AlwaysAllow when not given. */
  authorizer?: AuthorizerPort;
  /** Seconds after its last write that an object of this kind expires (undefined: never), e.g. --event-ttl. */
  ttlSeconds?: (def: ResourceDefinition) => number | undefined;
  /** Admission plugins run on every write (the composition root chooses them). */
  admission?: AdmissionChain;
}

export function strategyContext(deps: RegistryDeps, user: UserInfo, warnings?: string[]): StrategyContext {
  return { gates: deps.gates, clock: deps.clock, crypto: deps.crypto, user, authorizer: deps.authorizer ?? alwaysAllow, warnings };
}

let lastSecond = NaN;
let lastText = '';

/** RFC 3339 at second precision, as metav1.Time serializes (every write stamps one or two; formatted once a second). */
export function timestamp(d: Date): string {
  const second = Math.floor(d.getTime() / 1000);
  if (second !== lastSecond) {
    lastText = new Date(second * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    lastSecond = second;
  }
  return lastText;
}

export function resourceRef(def: ResourceDefinition) {
  return { group: def.group, plural: def.plural, kind: def.kind };
}
