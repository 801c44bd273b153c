/** CSIDriver rules (spec §2.1, upstream ValidateCSIDriver/ValidateCSIDriverUpdate) and its name rule. */
import { FieldError, FieldPath, RenderedValue, fieldErrors } from '../../machinery/field-errors';
import { KObject, deepEqual } from '../../machinery/object';
import { NameValidator, byteLength, maxLenError, regexError } from '../../machinery/validation/names';

export interface CsiTokenRequestObject {
  audience?: string;
  expirationSeconds?: number | null;
}

export interface CsiDriverSpecObject {
  attachRequired?: boolean | null;
  podInfoOnMount?: boolean | null;
  volumeLifecycleModes?: string[] | null;
  storageCapacity?: boolean | null;
  fsGroupPolicy?: string | null;
  tokenRequests?: CsiTokenRequestObject[] | null;
  requiresRepublish?: boolean | null;
  seLinuxMount?: boolean | null;
  nodeAllocatableUpdatePeriodSeconds?: number | null;
  serviceAccountTokenInSecrets?: boolean | null;
  preventPodSchedulingIfMissing?: boolean | null;
}

export const specOf = (obj: KObject): CsiDriverSpecObject => (obj.spec ?? {}) as CsiDriverSpecObject;

export const FS_GROUP_POLICIES = ['File', 'None', 'ReadWriteOnceWithFSType'] as const;
export const VOLUME_LIFECYCLE_MODES = ['Persistent', 'Ephemeral'] as const;

const NAME_MAX_LENGTH = 63;
const NAME_FMT = '[A-Za-z0-9]([-.A-Za-z0-9]*[A-Za-z0-9])?';
const nameRe = new RegExp(`^(?:${NAME_FMT})$`);

/**
 * The spec's driver-name rule (§2.1): at most 63 characters, alphanumeric
 * (either case) at both ends, dashes, dots or alphanumerics between.
 * generateName may end in '-' since a random suffix follows.
 */
export const validateCsiDriverName: NameValidator = (name, prefix) => {
  const value = prefix && name.endsWith('-') ? `${name.slice(0, -1)}a` : name;
  const errs: string[] = [];
  if (byteLength(value) > NAME_MAX_LENGTH) errs.push(maxLenError(NAME_MAX_LENGTH));
  if (!nameRe.test(value)) {
    errs.push(
      regexError(
        "a CSI driver name must consist of alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
        NAME_FMT,
        'csi.example.com',
        'MyDriver',
      ),
    );
  }
  return errs;
};

const isSet = <T>(v: T | null | undefined): v is T => v !== null && v !== undefined;

export function validateCsiDriver(obj: KObject): FieldError[] {
  const spec = specOf(obj);
  const p = FieldPath.root('spec');
  const errs: FieldError[] = [];
  // Upstream's path really says "attachedRequired".
  if (!isSet(spec.attachRequired)) errs.push(fieldErrors.required(p.child('attachedRequired')));
  if (!isSet(spec.podInfoOnMount)) errs.push(fieldErrors.required(p.child('podInfoOnMount')));
  if (!isSet(spec.storageCapacity)) errs.push(fieldErrors.required(p.child('storageCapacity')));
  if (isSet(spec.fsGroupPolicy) && !(FS_GROUP_POLICIES as readonly string[]).includes(spec.fsGroupPolicy)) {
    errs.push(fieldErrors.notSupported(p.child('fsGroupPolicy'), spec.fsGroupPolicy, FS_GROUP_POLICIES));
  }
  errs.push(...validateTokenRequests(spec.tokenRequests ?? [], p.child('tokenRequests')));
  for (const mode of spec.volumeLifecycleModes ?? []) {
    // Upstream reports every bad mode on the list itself, without an index.
    if (!(VOLUME_LIFECYCLE_MODES as readonly string[]).includes(mode)) {
      errs.push(fieldErrors.notSupported(p.child('volumeLifecycleModes'), mode, VOLUME_LIFECYCLE_MODES));
    }
  }
  if (!isSet(spec.seLinuxMount)) errs.push(fieldErrors.required(p.child('seLinuxMount')));
  const period = spec.nodeAllocatableUpdatePeriodSeconds;
  if (isSet(period) && period < 10) {
    errs.push(fieldErrors.invalid(p.child('nodeAllocatableUpdatePeriodSeconds'), period, 'must be greater than or equal to 10 seconds'));
  }
  if (isSet(spec.serviceAccountTokenInSecrets) && (spec.tokenRequests ?? []).length === 0) {
    errs.push(
      fieldErrors.invalid(
        p.child('serviceAccountTokenInSecrets'),
        spec.serviceAccountTokenInSecrets,
        'serviceAccountTokenInSecrets is set but no tokenRequests are specified',
      ),
    );
  }
  return errs;
}

function validateTokenRequests(requests: CsiTokenRequestObject[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  requests.forEach((req, i) => {
    const p = path.index(i);
    const audience = req.audience ?? '';
    if (seen.has(audience)) {
      errs.push(fieldErrors.duplicate(p.child('audience'), audience));
      return;
    }
    seen.add(audience);
    const exp = req.expirationSeconds;
    if (!isSet(exp)) return;
    if (exp < 600) errs.push(fieldErrors.invalid(p.child('expirationSeconds'), exp, 'may not specify a duration less than 10 minutes'));
    if (exp > 2 ** 32) errs.push(fieldErrors.invalid(p.child('expirationSeconds'), exp, 'may not specify a duration larger than 2^32 seconds'));
  });
  return errs;
}

export function validateCsiDriverUpdate(obj: KObject, old: KObject): FieldError[] {
  const spec = specOf(obj);
  const prev = specOf(old);
  const errs = validateCsiDriver(obj);
  const immutable = 'field is immutable';
  if ((spec.attachRequired ?? null) !== (prev.attachRequired ?? null)) {
    errs.push(fieldErrors.invalid('spec.attachedRequired', spec.attachRequired ?? null, immutable));
  }
  // Semantic equality: an empty list equals a missing one.
  const modes = spec.volumeLifecycleModes ?? [];
  if (!deepEqual(modes, prev.volumeLifecycleModes ?? [])) {
    errs.push(fieldErrors.invalid('spec.volumeLifecycleModes', goModes(spec.volumeLifecycleModes), immutable));
  }
  return errs;
}

/** Upstream prints the typed list with %#v. */
function goModes(modes: string[] | null | undefined): RenderedValue {
  if (!modes) return new RenderedValue('[]storage.VolumeLifecycleMode(nil)');
  return new RenderedValue(`[]storage.VolumeLifecycleMode{${modes.map((m) => JSON.stringify(m)).join(', ')}}`);
}
