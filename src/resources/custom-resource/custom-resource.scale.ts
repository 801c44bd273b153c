/**
 * The scale subresource of a custom resource, as upstream's: an
 * autoscaling/v1 Scale read from the paths the CRD names (replicas absent
 * read as 0), and written back by setting the spec replicas path.
 */
import { fieldErrors, type FieldError } from '../../machinery/field-errors';
import { isPlainObject, type KObject } from '../../machinery/object';
import type { SubresourceStrategy } from '../../machinery/resource-definition';
import type { ServedVersion } from './custom-resource.strategy';

type ScalePaths = NonNullable<ServedVersion['scale']>;

const fieldsOf = (path: string) => path.replace(/^\./, '').split('.');

function read(obj: KObject, path: string): unknown {
  let cur: unknown = obj;
  for (const f of fieldsOf(path)) cur = isPlainObject(cur) ? cur[f] : undefined;
  return cur;
}

function write(obj: KObject, path: string, value: unknown): void {
  const fields = fieldsOf(path);
  let cur: Record<string, unknown> = obj;
  for (const f of fields.slice(0, -1)) {
    if (!isPlainObject(cur[f])) cur[f] = {};
    cur = cur[f] as Record<string, unknown>;
  }
  cur[fields[fields.length - 1]] = value;
}

const replicas = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) ? v : 0);

export function scaleSubresource(paths: ScalePaths): SubresourceStrategy {
  return {
    verbs: ['get', 'patch', 'update'],
    // Writes through the view run the kind's main update rules; nothing here is reached without a view.
    prepareForUpdate: () => undefined,
    validateUpdate: () => [],
    view: {
      group: 'autoscaling',
      version: 'v1',
      kind: 'Scale',
      toView(obj) {
        const { name, namespace, uid, resourceVersion, creationTimestamp } = obj.metadata;
        const selector = paths.labelSelectorPath ? read(obj, paths.labelSelectorPath) : undefined;
        const status: Record<string, unknown> = { replicas: replicas(read(obj, paths.statusReplicasPath)) };
        if (typeof selector === 'string' && selector) status.selector = selector;
        const spec: Record<string, unknown> = {};
        const want = replicas(read(obj, paths.specReplicasPath));
        if (want) spec.replicas = want;
        return { kind: 'Scale', apiVersion: 'autoscaling/v1', metadata: { name, namespace, uid, resourceVersion, creationTimestamp }, spec, status };
      },
      fromView(view, obj) {
        const spec = isPlainObject(view.spec) ? view.spec : {};
        write(obj, paths.specReplicasPath, typeof spec.replicas === 'number' ? spec.replicas : 0);
      },
      validate(view): FieldError[] {
        const spec = isPlainObject(view.spec) ? view.spec : {};
        const r = spec.replicas;
        if (r === undefined) return [];
        if (typeof r !== 'number' || !Number.isInteger(r)) return [fieldErrors.invalid('spec.replicas', r, 'must be an integer')];
        return r < 0 ? [fieldErrors.invalid('spec.replicas', r, 'must be greater than or equal to 0')] : [];
      },
    },
  };
}
