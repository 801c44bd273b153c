/**
 * Watch events on the wire: `{"type":T,"object":...}\n`, one per line. JSON
 * watches reuse the frame the cache encoded once per event; Table and
 * PartialObjectMetadata watches render each object for their request.
 */
import type { Request } from 'express';
import type { KObject } from '../../machinery/object';
import { apiVersionOf, ResourceDefinition } from '../../machinery/resource-definition';
import type { Status } from '../../machinery/status';
import type { EventItem } from '../../registry/watch-cache';
import type { ResponseFormat } from './media';
import { toTable } from './render';

/** Marks the bookmark that ends the initial events of a sendInitialEvents watch. */
export const initialEventsEndAnnotation = 'svc.io/initial-events-end';

function frame(type: string, object: unknown): Buffer {
  return Buffer.from(`{"type":"${type}","object":${JSON.stringify(object)}}\n`);
}

export function bookmarkFrame(def: ResourceDefinition, rev: number, initialEventsEnd = false): Buffer {
  const metadata: Record<string, unknown> = { resourceVersion: String(rev) };
  if (initialEventsEnd) metadata.annotations = { [initialEventsEndAnnotation]: 'true' };
  return frame('BOOKMARK', { kind: def.kind, apiVersion: apiVersionOf(def), metadata });
}

export function errorFrame(status: Status): Buffer {
  return frame('ERROR', status);
}

/** Encodes events for one watch request in its negotiated format. */
export class EventEncoder {
  private columnsSent = false;

  constructor(
    private readonly req: Request,
    private readonly def: ResourceDefinition,
    private readonly format: ResponseFormat,
  ) {
    // Fail on a bad includeObject before the stream starts.
    if (this.isTable()) toTable(req, def, [], {}, 'v1');
  }

  private isTable(): boolean {
    return this.format === 'table' || this.format === 'table-v1beta1';
  }

  encode(item: EventItem): Buffer {
    if (this.format === 'json' || this.format === 'yaml') return item.frame();
    const obj: KObject = item.object.decode();
    obj.metadata.resourceVersion = String(item.rev);
    if (this.isTable()) {
      const version = this.format === 'table' ? 'v1' : 'v1beta1';
      const table = toTable(this.req, this.def, [obj], { resourceVersion: String(item.rev) }, version, !this.columnsSent);
      this.columnsSent = true;
      return frame(item.type, table);
    }
    return frame(item.type, { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata });
  }
}
