/** The condition the disruption controller maintains, and its reasons (spec §3.3; the list may grow). */
export { validateConditions, type MetaCondition as Condition } from '../../machinery/validation/conditions';

export const DISRUPTION_ALLOWED = 'DisruptionAllowed';
export const DisruptionAllowedReasons = { syncFailed: 'SyncFailed', insufficientPods: 'InsufficientPods', sufficientPods: 'SufficientPods' } as const;
