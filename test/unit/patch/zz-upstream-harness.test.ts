// TEMPORARY scratch harness (not to be kept): runs upstream test data from /tmp.
import { readFileSync } from 'fs';
import { applyStrategicMergePatch } from '../../../src/machinery/patch/strategic-merge';
import { Schema } from '../../../src/machinery/schema/schema';

const props: Record<string, Schema> = {};
const mergeItem: Schema = { type: 'object', properties: props };
const merge = (extra: Schema): Schema => ({ ...extra });
Object.assign(props, {
  name: { type: 'string' }, value: { type: 'string' }, other: { type: 'string' },
  mergingList: merge({ type: 'array', items: mergeItem, 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': 'name' }),
  nonMergingList: { type: 'array', items: mergeItem },
  mergingIntList: { type: 'array', items: { type: 'integer' }, 'x-kubernetes-patch-strategy': 'merge' },
  nonMergingIntList: { type: 'array', items: { type: 'integer' } },
  mergeItemPtr: { type: 'object', properties: props, items: mergeItem, 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': 'name' },
  simpleMap: { type: 'object', additionalProperties: { type: 'string' } },
  replacingItem: { 'x-kubernetes-patch-strategy': 'replace' },
  retainKeysMap: { type: 'object', 'x-kubernetes-patch-strategy': 'retainKeys', properties: {
    name: { type: 'string' }, value: { type: 'string' }, other: { type: 'string' },
    simpleMap: { type: 'object', additionalProperties: { type: 'string' } },
    mergingIntList: { type: 'array', items: { type: 'integer' }, 'x-kubernetes-patch-strategy': 'merge' },
    mergingList: { type: 'array', items: mergeItem, 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': 'name' },
    nonMergingList: { type: 'array', items: mergeItem },
  } },
  retainKeysMergingList: { type: 'array', items: mergeItem, 'x-kubernetes-patch-strategy': 'merge,retainKeys', 'x-kubernetes-patch-merge-key': 'name' },
});

function sortLists(v: any): any {
  if (Array.isArray(v)) return v.map(sortLists);
  if (v && typeof v === 'object') {
    const out: any = {};
    for (const k of Object.keys(v).sort()) {
      let x = sortLists(v[k]);
      if ((k === 'mergingList' || k === 'retainKeysMergingList') && Array.isArray(x)) x = [...x].sort((a, b) => String(a?.name).localeCompare(String(b?.name)));
      if (k === 'mergingIntList' && Array.isArray(x)) x = [...x].sort((a, b) => a - b);
      out[k] = x;
    }
    return out;
  }
  return v;
}
function canon(v: any): any {
  if (Array.isArray(v)) return v.map(canon);
  if (v && typeof v === 'object') { const o: any = {}; for (const k of Object.keys(v).sort()) o[k] = canon(v[k]); return o; }
  return v;
}

const cases = JSON.parse(readFileSync('/tmp/smpv/cases.json', 'utf8'));
describe('upstream data', () => {
  for (const [i, c] of cases.entries()) {
    it(`${i} ${c.src} ${c.kind} ${c.description}`, () => {
      let result: any; let err: any;
      try { result = applyStrategicMergePatch(c.original, c.patch, mergeItem); } catch (e) { err = e; }
      if (c.error) {
        expect(err?.message ?? 'NO ERROR').toContain(c.error);
        return;
      }
      if (err) throw new Error(`unexpected error ${err.message} (${err.code})`);
      const norm = c.sorted ? sortLists : canon;
      expect(norm(result)).toEqual(norm(c.expected ?? {}));
    });
  }
});
