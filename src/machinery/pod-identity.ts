/**
 * The PodIdentity X.509 extension of the pod-certificate design (KEP-4317):
 * OID 1.3.6.1.4.1.57683.1 (the CNCF's Kubernetes enterprise number), a DER
 * SEQUENCE of eight UTF8Strings with implicit context tags [0]..[7], as Go's
 * encoding/asn1 writes `asn1:"utf8,tag:N"` fields: namespace, namespace UID,
 * service account name and UID, pod name and UID, node name and UID.
 */
export const podIdentityOid = '1.3.6.1.4.1.57683.1';

export interface PodIdentity {
  namespace: string;
  namespaceUID: string;
  serviceAccountName: string;
  serviceAccountUID: string;
  podName: string;
  podUID: string;
  nodeName: string;
  nodeUID: string;
}

const order: Array<keyof PodIdentity> = ['namespace', 'namespaceUID', 'serviceAccountName', 'serviceAccountUID', 'podName', 'podUID', 'nodeName', 'nodeUID'];

function tlv(tag: number, content: Buffer): Buffer {
  const n = content.length;
  let length: Buffer;
  if (n < 0x80) length = Buffer.from([n]);
  else if (n < 0x100) length = Buffer.from([0x81, n]);
  else if (n < 0x10000) length = Buffer.from([0x82, n >> 8, n & 0xff]);
  else length = Buffer.from([0x83, n >> 16, (n >> 8) & 0xff, n & 0xff]);
  return Buffer.concat([Buffer.from([tag]), length, content]);
}

export function encodePodIdentity(id: PodIdentity): Uint8Array {
  const fields = order.map((k, i) => tlv(0x80 | i, Buffer.from(id[k], 'utf8')));
  return new Uint8Array(tlv(0x30, Buffer.concat(fields)));
}

/** The inverse, for the authenticator; undefined when the bytes are not a PodIdentity. */
export function decodePodIdentity(der: Uint8Array): PodIdentity | undefined {
  const b = Buffer.from(der);
  const read = (at: number): { tag: number; start: number; end: number } | undefined => {
    if (at + 2 > b.length) return undefined;
    const tag = b[at];
    let len = b[at + 1];
    let start = at + 2;
    if (len & 0x80) {
      const n = len & 0x7f;
      if (n < 1 || n > 3 || start + n > b.length) return undefined;
      len = 0;
      for (let i = 0; i < n; i++) len = len * 256 + b[start + i];
      start += n;
    }
    return start + len <= b.length ? { tag, start, end: start + len } : undefined;
  };
  const seq = read(0);
  if (!seq || seq.tag !== 0x30 || seq.end !== b.length) return undefined;
  const out: Partial<PodIdentity> = {};
  let at = seq.start;
  for (let i = 0; i < order.length; i++) {
    const f = read(at);
    if (!f || f.tag !== (0x80 | i) || f.end > seq.end) return undefined;
    out[order[i]] = b.subarray(f.start, f.end).toString('utf8');
    at = f.end;
  }
  return at === seq.end ? (out as PodIdentity) : undefined;
}
