/**
 * Per-template rules of upstream's scheduling v1beta1 declarative validation:
 * pod group templates and (recursive) composite templates.
 */
import { FieldError, FieldPath, fieldErrors } from '../../machinery/field-errors';
import { isQualifiedName } from '../../machinery/validation/names';
import { immutable, keyedList, longName, Op, positiveCount, ratchets, shortName, union } from './workload.checks';
import type {
  CompositeSchedulingPolicy,
  CompositeTemplate,
  PodGroupSchedulingPolicy,
  PodGroupTemplate,
  ResourceClaim,
  SchedulingConstraints,
  TemplateCommon,
} from './workload.shapes';

export const MAX_TEMPLATES = 8;
const MAX_RESOURCE_CLAIMS = 4;
const HIGHEST_USER_DEFINABLE_PRIORITY = 1000000000;
export const PREEMPTION_POLICIES = ['Never', 'PreemptLowerPriority'];

/** Immutable optional field: a change on update is the only error; on create `content` checks the value. */
function immutableOptional(op: Op, correlated: boolean, p: FieldPath, v: unknown, old: unknown, content: () => FieldError[] = () => []) {
  if (ratchets(op, correlated, v, old)) return [];
  if (op.update) return [immutable(p)];
  return v == null || v === '' ? [] : content();
}

/** An immutable optional field behind a gate: Forbidden while the gate is off and it was never used. */
function gatedImmutable(op: Op, allowed: boolean, correlated: boolean, p: FieldPath, v: unknown, old: unknown, content: () => FieldError[]) {
  if (ratchets(op, correlated, v, old)) return [];
  const errs: FieldError[] = [];
  if (!allowed && v != null) errs.push(fieldErrors.forbidden(p, ''));
  if (op.update) errs.push(immutable(p));
  return errs.length || v == null ? errs : content();
}

function constraints(p: FieldPath, sc: SchedulingConstraints): FieldError[] {
  const topology = sc.topology ?? [];
  const tp = p.child('topology');
  if (topology.length > 1) return [fieldErrors.tooMany(tp, topology.length, 1)];
  return topology.flatMap((t, i) => {
    const kp = tp.index(i).child('key');
    if (!t.key) return [fieldErrors.required(kp)];
    return isQualifiedName(t.key).map((msg) => fieldErrors.invalid(kp, t.key, msg));
  });
}

/** The fields both template kinds share after name and policy; constraints apart, as claims go between. */
function commonFields(op: Op, t: TemplateCommon, old: TemplateCommon | undefined, p: FieldPath, gatedConstraints: boolean) {
  const c = old != null;
  const scp = p.child('schedulingConstraints');
  const sc = () => constraints(scp, t.schedulingConstraints!);
  const dm = p.child('disruptionMode');
  const disruption = () => union(op, dm, [['single', t.disruptionMode?.single != null], ['all', t.disruptionMode?.all != null]]);
  const pcn = p.child('priorityClassName');
  const pr = p.child('priority');
  const pp = p.child('preemptionPolicy');
  const tooHigh = () =>
    t.priority! > HIGHEST_USER_DEFINABLE_PRIORITY
      ? [fieldErrors.invalid(pr, t.priority, `must be less than or equal to ${HIGHEST_USER_DEFINABLE_PRIORITY}`)]
      : [];
  const knownPolicy = () =>
    PREEMPTION_POLICIES.includes(t.preemptionPolicy!) ? [] : [fieldErrors.notSupported(pp, t.preemptionPolicy, PREEMPTION_POLICIES)];
  return {
    constraints: gatedConstraints
      ? gatedImmutable(op, op.opts.schedulingConstraints, c, scp, t.schedulingConstraints, old?.schedulingConstraints, sc)
      : immutableOptional(op, c, scp, t.schedulingConstraints, old?.schedulingConstraints, sc),
    rest: [
      ...immutableOptional(op, c, dm, t.disruptionMode, old?.disruptionMode, disruption),
      ...immutableOptional(op, c, pcn, t.priorityClassName ?? '', old?.priorityClassName ?? '', () => longName(pcn, t.priorityClassName!)),
      ...immutableOptional(op, c, pr, t.priority, old?.priority, tooHigh),
      ...gatedImmutable(op, op.opts.preemptionPolicy, c, pp, t.preemptionPolicy, old?.preemptionPolicy, knownPolicy),
    ],
  };
}

type AnyPolicy = { basic?: object; gang?: Record<string, number | undefined> };

/** basic/gang union: basic cannot change, gang cannot be set or cleared after creation; its count may change. */
function policy(op: Op, correlated: boolean, p: FieldPath, sp: AnyPolicy | undefined, old: AnyPolicy | undefined, countField: string) {
  const cur = sp ?? {};
  if (ratchets(op, correlated, cur, old ?? {})) return [];
  const errs = union(op, p, [['basic', cur.basic != null], ['gang', cur.gang != null]], [old?.basic != null, old?.gang != null]);
  if (op.update && !ratchets(op, correlated, cur.basic, old?.basic)) errs.push(immutable(p.child('basic')));
  if (ratchets(op, correlated, cur.gang, old?.gang)) return errs;
  const gp = p.child('gang');
  if (op.update && old?.gang == null && cur.gang != null) return [...errs, fieldErrors.invalid(gp, null, 'field cannot be set once created')];
  if (op.update && old?.gang != null && cur.gang == null) return [...errs, fieldErrors.invalid(gp, null, 'field cannot be cleared once set')];
  if (!cur.gang || ratchets(op, correlated, cur.gang[countField], old?.gang?.[countField])) return errs;
  return [...errs, ...positiveCount(gp.child(countField), cur.gang[countField])];
}

function resourceClaims(op: Op, correlated: boolean, p: FieldPath, claims: ResourceClaim[] | undefined, old: ResourceClaim[] | undefined) {
  if (ratchets(op, correlated, claims, old)) return [];
  const list = claims ?? [];
  const errs: FieldError[] = [];
  if (op.update) errs.push(immutable(p));
  if (list.length > MAX_RESOURCE_CLAIMS) errs.push(fieldErrors.tooMany(p, list.length, MAX_RESOURCE_CLAIMS));
  if (errs.length) return errs;
  // On create each claim is new, so the keyed-list rules reduce to uniqueness and per-item checks.
  return keyedList(op, p, list, undefined, false, { max: MAX_RESOURCE_CLAIMS, fixedMembers: false }, (rc, _old, ip) => {
    const named = (f: 'resourceClaimName' | 'resourceClaimTemplateName') => (rc[f] == null ? [] : longName(ip.child(f), rc[f]!));
    return [
      ...union(op, ip, [['resourceClaimName', rc.resourceClaimName != null], ['resourceClaimTemplateName', rc.resourceClaimTemplateName != null]]),
      ...shortName(ip.child('name'), rc.name),
      ...named('resourceClaimName'),
      ...named('resourceClaimTemplateName'),
    ];
  });
}

export function podGroupTemplate(op: Op, t: PodGroupTemplate, old: PodGroupTemplate | undefined, p: FieldPath): FieldError[] {
  const c = old != null;
  const common = commonFields(op, t, old, p, true);
  return [
    ...(ratchets(op, c, t.name, old?.name) ? [] : shortName(p.child('name'), t.name)),
    ...policy(op, c, p.child('schedulingPolicy'), t.schedulingPolicy as PodGroupSchedulingPolicy & AnyPolicy, old?.schedulingPolicy as AnyPolicy, 'minCount'),
    ...common.constraints,
    ...resourceClaims(op, c, p.child('resourceClaims'), t.resourceClaims, old?.resourceClaims),
    ...common.rest,
  ];
}

export function compositeTemplate(op: Op, t: CompositeTemplate, old: CompositeTemplate | undefined, p: FieldPath): FieldError[] {
  const c = old != null;
  const list = { max: MAX_TEMPLATES, fixedMembers: true };
  const common = commonFields(op, t, old, p, false);
  const errs = [
    ...(ratchets(op, c, t.name, old?.name) ? [] : shortName(p.child('name'), t.name)),
    ...policy(op, c, p.child('schedulingPolicy'), t.schedulingPolicy as CompositeSchedulingPolicy & AnyPolicy, old?.schedulingPolicy as AnyPolicy, 'minGroupCount'),
    ...common.constraints,
    ...common.rest,
    ...keyedList(op, p.child('podGroupTemplates'), t.podGroupTemplates, old?.podGroupTemplates, c, list, (x, o, ip) => podGroupTemplate(op, x, o, ip)),
    ...keyedList(op, p.child('compositePodGroupTemplates'), t.compositePodGroupTemplates, old?.compositePodGroupTemplates, c, list, (x, o, ip) =>
      compositeTemplate(op, x, o, ip),
    ),
  ];
  // Spec §2.9: a composite template needs at least one child list (not an upstream check).
  if (!t.podGroupTemplates?.length && !t.compositePodGroupTemplates?.length) {
    errs.push(fieldErrors.invalid(p, '', 'must specify at least one of: `podGroupTemplates`, `compositePodGroupTemplates`'));
  }
  return errs;
}
