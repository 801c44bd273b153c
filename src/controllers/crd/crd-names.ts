/**
 * The names a CustomResourceDefinition may use, and its NamesAccepted and
 * Established conditions, as upstream's naming and establishing controllers
 * decide them: a requested name is accepted when it is this CRD's already or
 * no other kind of the group uses it (other CRDs' accepted names, and the
 * built-in kinds); once its names are accepted a CRD is established, and
 * stays so.
 */
import type { KObject } from '../../machinery/object';
import type { ResourceDefinition } from '../../machinery/resource-definition';
import { CRDConditions, findCondition, type CustomResourceDefinitionSpecObject, type CustomResourceDefinitionStatusObject } from '../../resources/custom-resource-definition';

type Names = NonNullable<CustomResourceDefinitionSpecObject['names']>;
type Condition = { type: string; status: string; reason: string; message: string };

export interface NamingDecision {
  acceptedNames: Names;
  namesAccepted: Condition;
  established: Condition;
}

/** Every resource and kind name the group's kinds use: other CRDs' accepted names and the built-in kinds'. */
function namesInUse(group: string, crds: KObject[], builtIn: readonly ResourceDefinition[]): { resources: Set<string>; kinds: Set<string> } {
  const resources = new Set<string>();
  const kinds = new Set<string>();
  for (const crd of crds) {
    if ((crd.spec as CustomResourceDefinitionSpecObject | undefined)?.group !== group) continue;
    const n = (crd.status as CustomResourceDefinitionStatusObject | undefined)?.acceptedNames ?? {};
    for (const r of [n.plural, n.singular, ...(n.shortNames ?? [])]) if (r) resources.add(r);
    for (const k of [n.kind, n.listKind]) if (k) kinds.add(k);
  }
  for (const def of builtIn) {
    if (def.group !== group) continue;
    for (const r of [def.plural, def.singular, ...def.shortNames]) resources.add(r);
    kinds.add(def.kind).add(def.listKind);
  }
  return { resources, kinds };
}

/** Upstream's equalToAcceptedOrFresh: undefined when the name may be used, else why not. */
function conflict(requested: string | undefined, accepted: string | undefined, used: Set<string>): string | undefined {
  if (requested === accepted || requested === undefined || !used.has(requested)) return undefined;
  return `${JSON.stringify(requested)} is already in use`;
}

const sameList = (a: string[] | undefined, b: string[] | undefined) => JSON.stringify(a ?? []) === JSON.stringify(b ?? []);

/** The names and conditions a CRD should have, given the other CRDs and the built-in kinds. */
export function decideNames(crd: KObject, crds: KObject[], builtIn: readonly ResourceDefinition[]): NamingDecision {
  const spec = (crd.spec ?? {}) as CustomResourceDefinitionSpecObject;
  const status = (crd.status ?? {}) as CustomResourceDefinitionStatusObject;
  const requested = spec.names ?? {};
  const accepted = status.acceptedNames ?? {};
  const used = namesInUse(spec.group ?? '', crds, builtIn);
  const next: Names = { ...accepted };
  let refused: { reason: string; message: string } | undefined;
  const check = (field: 'plural' | 'singular' | 'kind' | 'listKind', reason: string, pool: Set<string>) => {
    const why = conflict(requested[field], accepted[field], pool);
    if (why) refused = { reason, message: why };
    else next[field] = requested[field];
  };
  check('plural', 'PluralConflict', used.resources);
  check('singular', 'SingularConflict', used.resources);
  if (!sameList(requested.shortNames, accepted.shortNames)) {
    const mine = new Set(accepted.shortNames ?? []);
    const problems = (requested.shortNames ?? [])
      .filter((s) => !mine.has(s) && s !== accepted.plural && s !== accepted.singular)
      .map((s) => conflict(s, '', used.resources))
      .filter((m): m is string => !!m);
    if (problems.length) refused = { reason: 'ShortNamesConflict', message: problems.length === 1 ? problems[0] : `[${problems.join(', ')}]` };
    else next.shortNames = requested.shortNames;
  }
  check('kind', 'KindConflict', used.kinds);
  check('listKind', 'ListKindConflict', used.kinds);
  next.categories = requested.categories;
  const namesAccepted: Condition = refused
    ? { type: CRDConditions.namesAccepted, status: 'False', ...refused }
    : { type: CRDConditions.namesAccepted, status: 'True', reason: 'NoConflicts', message: 'no conflicts found' };
  const old = findCondition(status, CRDConditions.established);
  let established: Condition = old?.status === 'True'
    ? { type: CRDConditions.established, status: 'True', reason: old.reason ?? '', message: old.message ?? '' }
    : { type: CRDConditions.established, status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' };
  if (established.status !== 'True' && namesAccepted.status === 'True') {
    established = { type: CRDConditions.established, status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' };
  }
  return { acceptedNames: dropEmpty(next), namesAccepted, established };
}

/** Names as Go encodes them: empty optional lists and strings left out. */
function dropEmpty(n: Names): Names {
  const out: Names = {};
  if (n.plural) out.plural = n.plural;
  if (n.singular) out.singular = n.singular;
  if (n.shortNames?.length) out.shortNames = n.shortNames;
  if (n.kind) out.kind = n.kind;
  if (n.listKind) out.listKind = n.listKind;
  if (n.categories?.length) out.categories = n.categories;
  return out;
}
