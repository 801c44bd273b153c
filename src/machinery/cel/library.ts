/**
 * What a function library contributes: declarations for the checker,
 * implementations for the runtime, and cost estimates for the static
 * estimator. The Kubernetes libraries (library/*.ts) each export one.
 */
import type { CelFunc } from '@bufbuild/cel';
import type { Overload } from './declarations';
import type { CallEstimator } from './cost/estimate-types';

export interface Library {
  readonly name: string;
  readonly declarations: readonly Overload[];
  readonly functions: readonly CelFunc[];
  /** Static cost of calls, by function name; functions without one cost as cel-go's defaults say. */
  readonly estimators?: Readonly<Record<string, CallEstimator>>;
}
