/**
 * AdmissionReview in and out, as upstream's request package: the review
 * sent (admission.k8s.io, the wire protocol webhooks are written against),
 * and VerifyAdmissionResponse's checks of the answer (a response, the
 * request's uid and the review's apiVersion/kind for v1; patch and
 * patchType only together, and only from mutating webhooks).
 */
import { jsonWord, isPlainObject } from '../../machinery/patch/json-values';
import type { WebhookStatus } from './webhook-errors';

export type ReviewVersion = 'v1' | 'v1beta1';

export interface AdmissionResponse {
  allowed: boolean;
  /** The patch's bytes (base64 in the JSON). */
  patch?: Buffer;
  patchType?: string;
  status?: WebhookStatus;
  warnings: string[];
  auditAnnotations: Record<string, string>;
}

/** The answer could not be decoded as an AdmissionReview (Go's decoder would have failed). */
export class UndecodableAnswer extends Error {}

/** The answer decoded but is not a valid response (upstream: `received invalid webhook response: ...`). */
export class InvalidResponse extends Error {}

export function reviewBody(version: ReviewVersion, request: Record<string, unknown>): Record<string, unknown> {
  return { kind: 'AdmissionReview', apiVersion: `admission.k8s.io/${version}`, request };
}

const typeMeta = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

function fieldError(field: string, goType: string, v: unknown): UndecodableAnswer {
  return new UndecodableAnswer(`json: cannot unmarshal ${jsonWord(v)} into Go struct field AdmissionResponse.response.${field} of type ${goType}`);
}

/** Go's GroupVersionKind String(): `group/version, Kind=kind`. */
function gvkText(apiVersion: unknown, kind: unknown): string {
  const av = typeof apiVersion === 'string' ? apiVersion : '';
  const slash = av.indexOf('/');
  const [group, version] = slash < 0 ? ['', av] : [av.slice(0, slash), av.slice(slash + 1)];
  return `${group}/${version}, Kind=${typeof kind === 'string' ? kind : ''}`;
}

/** Decodes the fields of a response (null and absent fields read as Go's zero values). */
function decodeResponse(r: Record<string, unknown>): AdmissionResponse & { uid: string; patchTypeSet: boolean } {
  const { uid, allowed, patch, patchType, status, warnings, auditAnnotations } = r;
  if (uid != null && typeof uid !== 'string') throw fieldError('uid', 'types.UID', uid);
  if (allowed != null && typeof allowed !== 'boolean') throw fieldError('allowed', 'bool', allowed);
  if (patch != null && typeof patch !== 'string') throw fieldError('patch', '[]uint8', patch);
  if (patchType != null && typeof patchType !== 'string') throw fieldError('patchType', 'v1.PatchType', patchType);
  if (status != null && !isPlainObject(status)) throw fieldError('status', 'v1.Status', status);
  if (warnings != null && !(Array.isArray(warnings) && warnings.every((w) => typeof w === 'string'))) throw fieldError('warnings', '[]string', warnings);
  if (auditAnnotations != null && !(isPlainObject(auditAnnotations) && Object.values(auditAnnotations).every((v) => typeof v === 'string'))) {
    throw fieldError('auditAnnotations', 'map[string]string', auditAnnotations);
  }
  let bytes: Buffer | undefined;
  if (typeof patch === 'string' && patch !== '') {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(patch) || patch.length % 4 !== 0) throw new UndecodableAnswer('illegal base64 data in response.patch');
    bytes = Buffer.from(patch, 'base64');
  }
  return {
    uid: (uid as string | null | undefined) ?? '',
    allowed: allowed === true,
    patch: bytes,
    patchType: (patchType as string | null | undefined) ?? undefined,
    patchTypeSet: patchType != null,
    status: (status as WebhookStatus | null | undefined) ?? undefined,
    warnings: (warnings as string[] | null | undefined) ?? [],
    auditAnnotations: (auditAnnotations as Record<string, string> | null | undefined) ?? {},
  };
}

/** The webhook's answer as a response; throws UndecodableAnswer or InvalidResponse. */
export function verifyResponse(version: ReviewVersion, uid: string, mutating: boolean, answer: unknown): AdmissionResponse {
  if (!isPlainObject(answer)) throw new UndecodableAnswer(`couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonWord(answer)} into Go value of type ${typeMeta}`);
  if (answer.response == null) throw new InvalidResponse('webhook response was absent');
  if (!isPlainObject(answer.response)) throw new UndecodableAnswer(`json: cannot unmarshal ${jsonWord(answer.response)} into Go struct field AdmissionReview.response of type v1.AdmissionResponse`);
  const r = decodeResponse(answer.response);
  const { uid: answeredUid, patchTypeSet, ...response } = r;
  if (version === 'v1beta1') {
    // v1beta1 answers were never checked for uid or kind; a patch can only be a JSON patch there.
    if (!mutating) return { ...response, patch: undefined, patchType: undefined };
    return { ...response, patchType: response.patch?.length ? 'JSONPatch' : undefined };
  }
  if (answeredUid !== uid) throw new InvalidResponse(`expected response.uid="${uid}", got "${answeredUid}"`);
  const expected = 'admission.k8s.io/v1, Kind=AdmissionReview';
  const got = gvkText(answer.apiVersion, answer.kind);
  if (got !== expected) throw new InvalidResponse(`expected webhook response of ${expected}, got ${got}`);
  const hasPatch = !!response.patch?.length;
  if (mutating) {
    if (hasPatch && !patchTypeSet) throw new InvalidResponse('webhook returned response.patch but not response.patchType');
    if (!hasPatch && patchTypeSet) throw new InvalidResponse('webhook returned response.patchType but not response.patch');
    if (patchTypeSet && !response.patchType) throw new InvalidResponse(`webhook returned invalid response.patchType of ""`);
    return response;
  }
  if (hasPatch) throw new InvalidResponse('validating webhook may not return response.patch');
  if (patchTypeSet) throw new InvalidResponse('validating webhook may not return response.patchType');
  return response;
}
