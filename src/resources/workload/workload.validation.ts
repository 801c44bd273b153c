/**
 * Workload rules: upstream's hand-written tree checks (names unique across the
 * composite tree, depth, one priority configuration) followed by the
 * declarative spec rules, with ratcheting on update.
 */
import { FieldError, FieldPath, fieldErrors } from '../../machinery/field-errors';
import type { KObject } from '../../machinery/object';
import type { StrategyContext } from '../../machinery/resource-definition';
import { validatePathSegmentName } from '../../machinery/validation/names';
import { immutable, keyedList, longName, Op, ratchets, same, union } from './workload.checks';
import { CompositeTemplate, ControllerRef, specOf, TemplateCommon, WorkloadSpecShape } from './workload.shapes';
import { workloadOptions } from './workload.strategy';
import { compositeTemplate, MAX_TEMPLATES, podGroupTemplate } from './workload.templates';

/** Composite templates may nest three deep; pod groups form the fourth level. */
export const MAX_TEMPLATE_DEPTH = 4;

/** A name may repeat only within one list (that case is the list's own Duplicate); elsewhere in the tree it may not. */
function namesUniqueAcrossTree(spec: WorkloadSpecShape, p: FieldPath): FieldError[] {
  if (spec.podGroupTemplates?.length) return [];
  const firstList = new Map<string, string>();
  const errs: FieldError[] = [];
  const claim = (name: string, list: string, at: FieldPath) => {
    const seen = firstList.get(name);
    if (seen === undefined || seen === list) firstList.set(name, list);
    else errs.push(fieldErrors.duplicate(at.child('name'), name));
  };
  const visit = (c: CompositeTemplate, at: FieldPath, list: string) => {
    claim(c.name ?? '', list, at);
    const cl = at.child('compositePodGroupTemplates');
    (c.compositePodGroupTemplates ?? []).forEach((child, i) => visit(child, cl.index(i), cl.toString()));
    const pl = at.child('podGroupTemplates');
    (c.podGroupTemplates ?? []).forEach((child, i) => claim(child.name ?? '', pl.toString(), pl.index(i)));
  };
  const root = p.child('compositePodGroupTemplates');
  (spec.compositePodGroupTemplates ?? []).forEach((c, i) => visit(c, root.index(i), root.toString()));
  return errs;
}

function depthWithin(c: CompositeTemplate, depth: number): boolean {
  if (depth === MAX_TEMPLATE_DEPTH) return false;
  return (c.compositePodGroupTemplates ?? []).every((child) => depthWithin(child, depth + 1));
}

function depthLimit(spec: WorkloadSpecShape, p: FieldPath): FieldError[] {
  const root = p.child('compositePodGroupTemplates');
  return (spec.compositePodGroupTemplates ?? []).flatMap((c, i) =>
    depthWithin(c, 1) ? [] : [fieldErrors.invalid(root.index(i), c.compositePodGroupTemplates ?? [], `maximum template hierarchy depth is ${MAX_TEMPLATE_DEPTH}`)],
  );
}

/** Every template of the tree must name the same priority class and priority. */
function onePriority(spec: WorkloadSpecShape, p: FieldPath): FieldError[] {
  const order: TemplateCommon[] = [...(spec.podGroupTemplates ?? [])];
  const visit = (c: CompositeTemplate) => {
    order.push(c);
    (c.compositePodGroupTemplates ?? []).forEach(visit);
    order.push(...(c.podGroupTemplates ?? []));
  };
  (spec.compositePodGroupTemplates ?? []).forEach(visit);
  const key = (t: TemplateCommon) => `${t.priorityClassName ?? ''}\u0000${t.priority ?? 'nil'}`;
  if (order.some((t) => key(t) !== key(order[0]))) return [fieldErrors.invalid(p, null, 'detected multiple priority configurations')];
  return [];
}

/** A reference counts as unset when absent or empty (upstream's ImmutableByReflect zero check). */
const unsetRef = (ref: ControllerRef | undefined | null) => !ref || (!ref.apiGroup && !ref.kind && !ref.name);

/** Set once: an update may give a reference to a Workload that had none; after that it neither changes nor goes away. */
function controllerRef(op: Op, p: FieldPath, ref: ControllerRef | undefined, old: ControllerRef | undefined): FieldError[] {
  if (ratchets(op, true, ref, old)) return [];
  if (op.update && !unsetRef(old)) return [immutable(p)];
  if (!ref) return [];
  const segment = (f: 'kind' | 'name') => {
    const v = ref[f];
    if (!v) return [fieldErrors.required(p.child(f))];
    return validatePathSegmentName(v, false).map((msg) => fieldErrors.invalid(p.child(f), v, msg));
  };
  return [...(ref.apiGroup ? longName(p.child('apiGroup'), ref.apiGroup) : []), ...segment('kind'), ...segment('name')];
}

function declarativeSpec(op: Op, spec: WorkloadSpecShape, old: WorkloadSpecShape | undefined): FieldError[] {
  const p = FieldPath.root('spec');
  if (ratchets(op, true, spec, old)) return [];
  const has = (s: WorkloadSpecShape | undefined) => [(s?.podGroupTemplates?.length ?? 0) > 0, (s?.compositePodGroupTemplates?.length ?? 0) > 0];
  const [pg, cpg] = has(spec);
  const cp = p.child('compositePodGroupTemplates');
  const errs = [
    ...union(op, p, [['podGroupTemplates', pg], ['compositePodGroupTemplates', cpg]], has(old)),
    ...controllerRef(op, p.child('controllerRef'), spec.controllerRef, old?.controllerRef),
    ...keyedList(op, p.child('podGroupTemplates'), spec.podGroupTemplates, old?.podGroupTemplates, true, { max: MAX_TEMPLATES, fixedMembers: true }, (t, o, ip) =>
      podGroupTemplate(op, t, o, ip),
    ),
    ...keyedList(
      op,
      cp,
      spec.compositePodGroupTemplates,
      old?.compositePodGroupTemplates,
      true,
      { max: MAX_TEMPLATES, fixedMembers: true, forbidden: !op.opts.composite },
      (t, o, ip) => compositeTemplate(op, t, o, ip),
    ),
  ];
  // Spec §2.9 makes the whole composite tree immutable; upstream pins most of it (gang counts excepted).
  const underComposite = (e: FieldError) => e.field === cp.toString() || e.field.startsWith(`${cp}[`) || e.field.startsWith(`${cp}.`);
  if (op.update && !same(spec.compositePodGroupTemplates, old?.compositePodGroupTemplates) && !errs.some(underComposite)) errs.push(immutable(cp));
  return errs;
}

function validateSpec(op: Op, spec: WorkloadSpecShape, old: WorkloadSpecShape | undefined): FieldError[] {
  const p = FieldPath.root('spec');
  return [...namesUniqueAcrossTree(spec, p), ...depthLimit(spec, p), ...onePriority(spec, p), ...declarativeSpec(op, spec, old)];
}

export function validateWorkload(obj: KObject, ctx: StrategyContext): FieldError[] {
  return validateSpec({ update: false, opts: workloadOptions(ctx) }, specOf(obj), undefined);
}

export function validateWorkloadUpdate(obj: KObject, old: KObject, ctx: StrategyContext): FieldError[] {
  return validateSpec({ update: true, opts: workloadOptions(ctx, old) }, specOf(obj), specOf(old));
}
