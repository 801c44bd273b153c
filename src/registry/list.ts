/**
 * LIST read from storage: a consistent snapshot at one revision, paged with
 * upstream's continue tokens, filtered by selectors.
 */
import { errors } from '../machinery/status';
import { KList, KObject } from '../machinery/object';
import { ResourceDefinition, apiVersionOf } from '../machinery/resource-definition';
import { CompactedError, FutureRevisionError, KeyValue, StoragePort } from '../ports/storage.port';
import { CorruptObjectError, parseStored } from './codec';
import { hasMembers, insertRevision } from './with-revision';
import { decodeContinue, encodeContinue } from './continue-token';
import { listPrefix, resourcePrefix } from './keys';
import { Predicate } from './predicate';

export interface StorageListRequest {
  namespace?: string;
  predicate: Predicate;
  limit?: number;
  continue?: string;
  /** Read exactly at this revision (0: latest). */
  revision?: number;
  /** Keep each item's JSON as stored, resourceVersion written in (itemsJson), for a list sent as bytes. */
  json?: boolean;
}

/** A list read from storage; with StorageListRequest.json, each item's JSON too, in the same order. */
export type StorageList = KList & { itemsJson?: string[] };

const pageSize = 10000;

export function emptyList(def: ResourceDefinition, resourceVersion: string): KList {
  return { kind: def.listKind, apiVersion: apiVersionOf(def), metadata: { resourceVersion }, items: [] };
}

export async function listFromStorage(def: ResourceDefinition, storage: StoragePort, req: StorageListRequest): Promise<StorageList> {
  const base = resourcePrefix(def);
  const ns = def.namespaced ? (req.namespace ?? req.predicate.namespace) : undefined;
  if (req.namespace && req.predicate.namespace && req.namespace !== req.predicate.namespace) return emptyList(def, String(await storage.currentRevision()));
  const prefix = listPrefix(def, ns);
  let revision = req.revision ?? 0;
  let startKey: string | undefined;
  if (req.continue) {
    const pos = decodeContinue(req.continue);
    revision = pos.rv === -1 ? 0 : pos.rv;
    startKey = base + pos.start;
    if (!startKey.startsWith(prefix)) throw errors.badRequest('invalid continue token: continue key is not valid: start key outside the list');
  }
  const limit = req.limit && req.limit > 0 ? req.limit : 0;
  const items: KObject[] = [];
  const itemsJson: string[] | undefined = req.json ? [] : undefined;
  let readRevision = 0;
  let lastKey: string | undefined;
  let more = false;
  let remaining: number | undefined;
  try {
    for (;;) {
      const want = limit && req.predicate.empty ? Math.min(pageSize, limit - items.length) : pageSize;
      const page = await storage.range(prefix, { revision, limit: want, startKey });
      readRevision = page.revision;
      revision = page.revision;
      for (let i = 0; i < page.items.length; i++) {
        const kv = page.items[i];
        lastKey = kv.key;
        const text = kv.value.toString('utf8');
        const obj = parseOrSkip(def, kv, text);
        if (!obj) continue;
        // As the watch cache does: the revision written into the stored text, when it is in the shape this server
        // stores (an object stored as another kind is converted, and encoded anew), for the items that match.
        const plain = itemsJson !== undefined && !def.storedAs && !('resourceVersion' in obj.metadata);
        const members = plain && hasMembers(obj.metadata);
        obj.metadata.resourceVersion = String(kv.modRevision);
        if (!req.predicate.matches(obj)) continue;
        items.push(obj);
        itemsJson?.push((plain && insertRevision(text, members, kv.modRevision)) || JSON.stringify(obj));
        if (limit && items.length >= limit) {
          more = i < page.items.length - 1 || page.more;
          if (more && req.predicate.empty) remaining = page.count - (i + 1);
          break;
        }
      }
      if ((limit && items.length >= limit) || !page.more || page.items.length === 0) break;
      startKey = `${page.items[page.items.length - 1].key}\u0000`;
    }
  } catch (e) {
    if (e instanceof CompactedError) {
      if (req.continue) {
        const pos = decodeContinue(req.continue);
        throw errors.expired(
          'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.',
          Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: -1, start: pos.start })).toString('base64url'),
        );
      }
      throw errors.expired('The resourceVersion for the provided list is too old.');
    }
    if (e instanceof FutureRevisionError) throw errors.tooLargeResourceVersion(e.requestedRevision, e.currentRevision, 0);
    throw e;
  }
  const list: StorageList = emptyList(def, String(readRevision));
  list.items = items;
  if (itemsJson) list.itemsJson = itemsJson;
  if (more && lastKey) {
    list.metadata.continue = encodeContinue(readRevision, lastKey.slice(base.length));
    if (remaining !== undefined && remaining > 0) list.metadata.remainingItemCount = remaining;
  }
  return list;
}

/**
 * An object that no longer decodes is left out of lists (as the watch cache
 * leaves it out) so that the others stay listable; GET and DELETE of it
 * report the corruption, and DELETE with
 * ignoreStoreReadErrorWithClusterBreakingPotential=true removes it.
 * (Upstream instead fails the whole list with a StoreReadError.)
 */
function parseOrSkip(def: ResourceDefinition, kv: KeyValue, text: string): KObject | undefined {
  try {
    return parseStored(def, text, kv.modRevision, kv.key);
  } catch (e) {
    if (e instanceof CorruptObjectError) return undefined;
    throw e;
  }
}
