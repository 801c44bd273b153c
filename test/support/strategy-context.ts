/** A StrategyContext for unit tests: real crypto, a fixed clock, default (or given) feature gates. */
import { FeatureGates } from '../../src/machinery/feature-gates';
import type { StrategyContext } from '../../src/machinery/resource-definition';
import { WebCryptoAdapter } from '../../src/adapters/crypto';
import { alwaysAllow } from '../../src/ports/authorizer.port';

export const fixedNow = new Date('2026-01-02T03:04:05Z');

export function strategyContext(gates: Record<string, boolean> = {}, now = fixedNow): StrategyContext {
  return {
    gates: new FeatureGates(gates),
    clock: { now: () => now },
    crypto: new WebCryptoAdapter(),
    user: { username: 'system:admin', groups: ['system:masters', 'system:authenticated'] },
    authorizer: alwaysAllow,
  };
}
