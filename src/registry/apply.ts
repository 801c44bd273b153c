/** Server-side apply. Interim: not yet offered (the HTTP layer does not advertise apply-patch until this lands). */
import { errors } from '../machinery/status';
import type { KObject } from '../machinery/object';
import type { ResourceDefinition } from '../machinery/resource-definition';
import type { PatchRequest } from './request';
import type { WriteOptions } from './request';

export async function applyServerSide(
  _def: ResourceDefinition,
  _live: KObject | undefined,
  _req: PatchRequest,
  _opts: WriteOptions,
  _namespace: string | undefined,
  _name: string,
  _now: Date,
  _subresource?: string,
): Promise<KObject> {
  throw errors.unsupportedMediaType(['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json']);
}
