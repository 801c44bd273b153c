/**
 * Drives a ResourceDefinition's strategy the way the registry does (status
 * kept or dropped, prepare, defaults, validate, canonicalize), for the
 * certificates.svc.io kind tests.
 */
import { errorBody, type FieldError } from '../../../src/machinery/field-errors';
import type { KObject } from '../../../src/machinery/object';
import type { ResourceDefinition, StrategyContext } from '../../../src/machinery/resource-definition';
import { resetObjectMetaForStatus } from '../../../src/registry/admission';

export const b64 = (text: string | Uint8Array) => Buffer.from(text as never).toString('base64');

export interface Outcome {
  obj: KObject;
  errs: FieldError[];
}

export async function runCreate(def: ResourceDefinition, input: Record<string, unknown>, ctx: StrategyContext): Promise<Outcome> {
  const obj = structuredClone(input) as KObject;
  if (def.subresources.status) delete obj.status;
  def.strategy.prepareForCreate?.(obj, ctx);
  def.strategy.applyDefaults?.(obj, ctx);
  const errs = await def.strategy.validate(obj, ctx);
  if (!errs.length) def.strategy.canonicalize?.(obj);
  return { obj, errs };
}

export async function runUpdate(
  def: ResourceDefinition,
  input: Record<string, unknown>,
  old: KObject,
  ctx: StrategyContext,
  subresource?: string,
): Promise<Outcome> {
  const obj = structuredClone(input) as KObject;
  if (subresource) {
    if (def.subresources[subresource].resetObjectMeta) resetObjectMetaForStatus(obj, old);
    def.subresources[subresource].prepareForUpdate(obj, old, ctx);
  } else {
    if (def.subresources.status) {
      if (old.status !== undefined) obj.status = structuredClone(old.status);
      else delete obj.status;
    }
    def.strategy.prepareForUpdate?.(obj, old, ctx);
    def.strategy.applyDefaults?.(obj, ctx);
  }
  const errs = subresource
    ? await def.subresources[subresource].validateUpdate(obj, old, ctx)
    : await def.strategy.validateUpdate(obj, old, ctx);
  if (!errs.length) def.strategy.canonicalize?.(obj);
  return { obj, errs };
}

/** Errors as clients see them in Status causes: field, reason, message. */
export const causes = (errs: FieldError[]) => errs.map((e) => ({ field: e.field, reason: e.type, message: errorBody(e) }));

export function cause(field: string, reason: string, message: string) {
  return { field, reason, message };
}

/** A copy of a DER with one signature byte flipped, so the self-signature no longer verifies. */
export function tamperSignature(der: Uint8Array): Uint8Array {
  const copy = new Uint8Array(der);
  copy[copy.length - 5] ^= 0x01;
  return copy;
}

export function toPem(type: string, der: Uint8Array, headers: Record<string, string> = {}): string {
  const body = Buffer.from(der).toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n$/, '');
  const head = Object.entries(headers).map(([k, v]) => `${k}: ${v}\n`).join('');
  return `-----BEGIN ${type}-----\n${head}${head ? '\n' : ''}${body}\n-----END ${type}-----\n`;
}
