/**
 * Conversion of custom resources through the CRD's conversion webhook
 * (`spec.conversion.strategy: Webhook`), as upstream's webhookConverter: the
 * objects not yet in the desired version go out in one ConversionReview, and
 * the answer is checked (uid, result, count, apiVersion, kind, name,
 * namespace, uid). Of the metadata only labels and annotations may change;
 * the rest is put back as it was. Failures are upstream's untyped 500s.
 */
import { errors } from '../../machinery/status';
import type { KObject } from '../../machinery/object';
import type { AsyncConverter } from '../../machinery/resource-definition';
import { goSeconds, goTransportReason, WebhookCallError, webhookUrl, type WebhookClientConfig, type WebhookPort } from '../../ports/webhook.port';
import { decodeStored, type ServedVersion } from './custom-resource.strategy';

/** Upstream's rest client for conversion webhooks waits 30 s. */
export const conversionTimeoutMs = 30_000;

export interface ConversionWebhook {
  /** caBundle as PEM text (the CRD carries base64 of it). */
  clientConfig: WebhookClientConfig;
  conversionReviewVersions: string[];
}

export type ReviewVersion = 'v1' | 'v1beta1';

/** The first ConversionReview version the webhook accepts that this server speaks. */
export function reviewVersionOf(versions: readonly string[]): ReviewVersion | undefined {
  return versions.find((v): v is ReviewVersion => v === 'v1' || v === 'v1beta1');
}

export function conversionReview(version: ReviewVersion, uid: string, desiredAPIVersion: string, objects: KObject[]): Record<string, unknown> {
  return { kind: 'ConversionReview', apiVersion: `apiextensions.k8s.io/${version}`, request: { uid, desiredAPIVersion, objects } };
}

/** A reason the answer is refused; worded as upstream's, the caller adds `conversion webhook for <gvk> ...`. */
export class ConversionFailure extends Error {}

const isObject = (v: unknown): v is Record<string, any> => typeof v === 'object' && v !== null && !Array.isArray(v);
const gvkText = (apiVersion: unknown, kind: unknown) => `${typeof apiVersion === 'string' ? apiVersion : ''}, Kind=${typeof kind === 'string' ? kind : ''}`;

/** The converted objects of a review's answer: `failed: <why>` errors thrown as ConversionFailure('failed: ...'). */
export function convertedObjectsOf(version: ReviewVersion, uid: string, answer: unknown): unknown[] {
  const fail = (why: string) => new ConversionFailure(`failed: ${why}`);
  if (!isObject(answer)) throw fail('no response provided');
  if (version === 'v1') {
    const got = gvkText(answer.apiVersion, answer.kind);
    const expected = 'apiextensions.k8s.io/v1, Kind=ConversionReview';
    if (got !== expected) throw fail(`expected webhook response of ${expected}, got ${got === ', Kind=' ? '/, Kind=' : got}`);
  }
  const response = answer.response;
  if (!isObject(response)) throw fail('no response provided');
  // v1beta1 answers were never checked for their uid (upstream keeps it so).
  if (version === 'v1' && response.uid !== uid) throw fail(`expected response.uid="${uid}", got "${typeof response.uid === 'string' ? response.uid : ''}"`);
  const result = isObject(response.result) ? response.result : {};
  if (result.status !== 'Success') {
    if (typeof result.message === 'string' && result.message) throw fail(result.message);
    throw fail(`response.result.status was '${typeof result.status === 'string' ? result.status : ''}', not 'Success'`);
  }
  return Array.isArray(response.convertedObjects) ? response.convertedObjects : [];
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** Upstream's validateConvertedObject: the same kind, name, namespace and uid. */
function sameIdentity(original: KObject, converted: Record<string, any>): string | undefined {
  const meta = isObject(converted.metadata) ? converted.metadata : {};
  const pairs: Array<[string, unknown, unknown]> = [
    ['kind', original.kind, converted.kind],
    ['name', original.metadata.name, meta.name],
    ['namespace', original.metadata.namespace, meta.namespace],
    ['UID', original.metadata.uid, meta.uid],
  ];
  for (const [what, e, a] of pairs) if (str(e) !== str(a)) return `must have the same ${what}: ${str(e)} != ${str(a)}`;
  return undefined;
}

/** Upstream's restoreObjectMeta: the original metadata, with the converted labels and annotations. */
function restoreMeta(original: KObject, converted: Record<string, any>): string | undefined {
  const answered = converted.metadata;
  if (answered === undefined) return 'missing metadata in converted object';
  if (!isObject(answered)) return `invalid metadata of type ${Array.isArray(answered) ? '[]interface {}' : typeof answered} in converted object`;
  const meta = structuredClone(original.metadata) as Record<string, unknown>;
  for (const field of ['labels', 'annotations'] as const) {
    const value = answered[field];
    if (value === undefined || value === null) {
      delete meta[field];
      continue;
    }
    if (!isObject(value)) return `invalid metadata.${field} of type ${typeof value} in converted object`;
    for (const [k, v] of Object.entries(value)) if (typeof v !== 'string') return `metadata.${field}[${k}] must be a string, but is ${typeof v} in converted object`;
    meta[field] = value;
  }
  converted.metadata = meta;
  return undefined;
}

/**
 * The answer's objects checked against those sent, in place of them (metadata restored); several are checked as
 * upstream checks a list's items.
 */
export function checkConverted(sent: KObject[], got: unknown[], desiredAPIVersion: string): KObject[] {
  const fail = (why: string) => new ConversionFailure(why);
  if (got.length !== sent.length) throw fail(`returned ${got.length} objects, expected ${sent.length}`);
  const list = sent.length > 1;
  return sent.map((original, i) => {
    const converted = got[i];
    // Upstream numbers a list's items from 1 in these messages (its index is advanced first), a single object 0.
    const at = list ? `invalid converted object at index ${i + 1}` : 'invalid object at index 0';
    if (!isObject(converted)) throw fail(`returned invalid converted object at index ${i}: Object 'Kind' is missing in '${JSON.stringify(converted)}'`);
    if (converted.apiVersion !== desiredAPIVersion) throw fail(`returned ${at}: invalid groupVersion (expected ${desiredAPIVersion}, received ${str(converted.apiVersion)})`);
    if (converted.kind !== original.kind) throw fail(`returned ${at}: invalid kind (expected ${str(original.kind)}, received ${str(converted.kind)})`);
    const mismatch = sameIdentity(original, converted);
    if (mismatch) throw fail(list ? `returned ${at}: ${mismatch}` : `returned invalid object: ${mismatch}`);
    const badMeta = restoreMeta(original, converted);
    if (badMeta) throw fail(list ? `returned invalid metadata in object at index ${i + 1}: ${badMeta}` : `returned invalid metadata: ${badMeta}`);
    return converted as KObject;
  });
}

/** The URL called, with upstream's `?timeout=` for the deadline. */
function callUrl(config: WebhookClientConfig, timeoutMs: number): string {
  const url = new URL(webhookUrl(config));
  url.searchParams.set('timeout', goSeconds(Math.max(1, Math.ceil(timeoutMs / 1000))));
  return url.toString();
}

/** Converts between a served version and the storage version through the webhook; objects already in the desired version are not sent. */
export function webhookConverter(v: ServedVersion, hook: ConversionWebhook, port: WebhookPort, timeoutMs = conversionTimeoutMs): AsyncConverter {
  const version = reviewVersionOf(hook.conversionReviewVersions);
  const convert = async (objs: KObject[], desired: string): Promise<KObject[]> => {
    const todo: number[] = [];
    for (let i = 0; i < objs.length; i++) if (objs[i].apiVersion !== desired) todo.push(i);
    if (todo.length === 0) return objs;
    const sent = todo.map((i) => objs[i]);
    const first = sent[0];
    const gvk = sent.length > 1 ? gvkText(first.apiVersion, `${v.kind}List`) : gvkText(first.apiVersion, first.kind);
    const failure = (why: string) => errors.untyped(`conversion webhook for ${gvk} ${why}`);
    if (!version) throw failure('failed: no supported conversion review versions');
    const uid = globalThis.crypto.randomUUID();
    let answer: unknown;
    let url = '';
    try {
      url = callUrl(hook.clientConfig, timeoutMs);
      answer = await port.post({ ...hook.clientConfig, url }, conversionReview(version, uid, desired, sent), timeoutMs);
    } catch (e) {
      if (!(e instanceof WebhookCallError)) throw failure(`failed: ${(e as Error).message}`);
      const transport = e.failure === 'timeout' || e.failure === 'unreachable';
      throw failure(`failed: ${transport ? `Post "${url}": ${goTransportReason(e.message)}` : e.message}`);
    }
    try {
      const converted = checkConverted(sent, convertedObjectsOf(version, uid, answer), desired);
      const out = objs.slice();
      todo.forEach((i, n) => (out[i] = converted[n]));
      return out;
    } catch (e) {
      if (e instanceof ConversionFailure) throw failure(e.message);
      throw e;
    }
  };
  return {
    fromStorage: async (objs) => (await convert(objs, `${v.group}/${v.version}`)).map((o) => decodeStored(v, o)),
    toStorage: (objs) => convert(objs, `${v.group}/${v.storageVersion}`),
  };
}
