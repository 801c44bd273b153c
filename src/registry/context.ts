/** The ports and settings every registry operation shares. */
import type { StoragePort } from '../ports/storage.port';
import type { ClockPort } from '../ports/clock.port';
import type { CryptoPort } from '../ports/crypto.port';
import type { FeatureGates } from '../machinery/feature-gates';
import type { ResourceDefinition, StrategyContext, UserInfo } from '../machinery/resource-definition';

export interface RegistryDeps {
  storage: StoragePort;
  clock: ClockPort;
  crypto: CryptoPort;
  gates: FeatureGates;
}

export function strategyContext(deps: RegistryDeps, user: UserInfo): StrategyContext {
  return { gates: deps.gates, clock: deps.clock, crypto: deps.crypto, user };
}

/** RFC 3339 at second precision, as metav1.Time serializes. */
export function timestamp(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function resourceRef(def: ResourceDefinition) {
  return { group: def.group, plural: def.plural, kind: def.kind };
}
