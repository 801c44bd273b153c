/**
 * Content negotiation: which encoding a response uses (Accept) and how a
 * request body is decoded (Content-Type), with upstream's 406/415 answers.
 */
import yaml from 'js-yaml';
import { errors } from '../../machinery/status';
import { loadYaml, YamlAliasError } from './yaml-nodes';
import { scanJsonText } from './json-text';
import { decodeKubernetesProtobuf } from './protobuf';

export type ResponseFormat = 'json' | 'yaml' | 'table' | 'table-v1beta1' | 'partial-metadata' | 'partial-metadata-list';

export const JSON_TYPE = 'application/json';
export const YAML_TYPE = 'application/yaml';
export const PROTOBUF_TYPE = 'application/vnd.kubernetes.protobuf';

const acceptedMessage = `only the following media types are accepted: ${JSON_TYPE}, ${YAML_TYPE}, ${PROTOBUF_TYPE}`;

interface MediaRange {
  type: string;
  params: Record<string, string>;
  q: number;
}

function parseAccept(header: string): MediaRange[] {
  return header
    .split(',')
    .map((part) => {
      const [type, ...rest] = part.split(';').map((s) => s.trim());
      const params: Record<string, string> = {};
      for (const p of rest) {
        const eq = p.indexOf('=');
        if (eq > 0) params[p.slice(0, eq).trim().toLowerCase()] = p.slice(eq + 1).trim().replace(/^"|"$/g, '');
      }
      const q = params.q !== undefined ? Number(params.q) : 1;
      return { type: type.toLowerCase(), params, q: Number.isNaN(q) ? 1 : q };
    })
    .filter((m) => m.type !== '' && m.q > 0);
}

/** Decisions by Accept header: clients send the same few headers on every request. */
const negotiated = new Map<string, ResponseFormat>();

/** Picks the response format; throws 406 when nothing acceptable is offered. */
export function negotiate(accept: string | undefined, opts: { watch?: boolean; list?: boolean } = {}): ResponseFormat {
  if (!accept || accept === JSON_TYPE) return 'json';
  const key = `${opts.watch ? 'w' : '-'}${opts.list ? 'l' : '-'}${accept}`;
  let format = negotiated.get(key);
  if (format === undefined) {
    format = pick(accept, opts);
    if (negotiated.size >= 1000) negotiated.clear(); // arbitrary headers cannot grow it without bound
    negotiated.set(key, format);
  }
  return format;
}

function pick(accept: string, opts: { watch?: boolean; list?: boolean }): ResponseFormat {
  if (accept.trim() === '') return 'json';
  for (const m of parseAccept(accept)) {
    const { type, params } = m;
    if (type === JSON_TYPE && params.as) {
      if (params.g !== 'meta.k8s.io') continue;
      if (params.as === 'Table') {
        if (params.v === 'v1') return 'table';
        if (params.v === 'v1beta1') return 'table-v1beta1';
        continue;
      }
      if (params.as === 'PartialObjectMetadata' && !opts.list && (params.v === 'v1' || params.v === 'v1beta1')) return 'partial-metadata';
      if (params.as === 'PartialObjectMetadataList' && opts.list && (params.v === 'v1' || params.v === 'v1beta1')) return 'partial-metadata-list';
      continue;
    }
    if (type === JSON_TYPE || type === '*/*' || type === 'application/*') return 'json';
    if (type === YAML_TYPE && !opts.watch) return 'yaml';
  }
  throw errors.notAcceptable(acceptedMessage);
}

export interface DecodedRequestBody {
  object: unknown;
  duplicateFields: string[];
}

/** The last Content-Type read and its media type: a client sends the same header on every request. */
let lastContentType = '';
let lastMediaType = '';

function mediaType(contentType: string | undefined): string {
  if (contentType === undefined) return '';
  if (contentType !== lastContentType) {
    lastMediaType = contentType.split(';')[0].trim().toLowerCase();
    lastContentType = contentType;
  }
  return lastMediaType;
}

/** Decodes a create/update body; 415 for encodings we do not read. */
export function decodeObjectBody(contentType: string | undefined, body: Buffer): DecodedRequestBody {
  const type = mediaType(contentType);
  if (type === '' || type === JSON_TYPE) return decodeJson(body);
  if (type === YAML_TYPE || type === 'application/apply-patch+yaml') return decodeYaml(body);
  if (type === PROTOBUF_TYPE) {
    try {
      return { object: decodeKubernetesProtobuf(body).object, duplicateFields: [] };
    } catch (e) {
      throw errors.badRequest(`unable to decode protobuf body: ${(e as Error).message}`);
    }
  }
  throw errors.unsupportedMediaType([JSON_TYPE, YAML_TYPE, PROTOBUF_TYPE]);
}

/**
 * How deeply a JSON body may nest. Bodies are walked recursively further on (patches, schema checks, cloning), so
 * one nested deeper than the stack allows is refused while it is still text. Kubernetes objects nest a few dozen
 * levels at most; js-yaml stops YAML at 100.
 */
export const maxJsonDepth = 1000;

/** JSON.parse builds the object; one scan of the text finds what it does not report (depth, repeated keys). */
export function decodeJson(body: Buffer): DecodedRequestBody {
  const text = body.toString('utf8');
  if (text.trim() === '') throw errors.badRequest('the request body is empty');
  let object: unknown;
  try {
    object = JSON.parse(text);
  } catch (e) {
    throw errors.badRequest(`couldn't get version/kind; json parse error: ${(e as Error).message}`);
  }
  const scan = scanJsonText(text, maxJsonDepth);
  if (scan.tooDeep) {
    throw errors.badRequest(`couldn't get version/kind; json parse error: exceeded max depth: more than ${maxJsonDepth} nested objects and arrays`);
  }
  return { object, duplicateFields: scan.duplicates };
}

/** One js-yaml load, which also finds repeated keys and go-yaml's alias limits (yaml-nodes.ts). */
export function decodeYaml(body: Buffer): DecodedRequestBody {
  try {
    const { object, duplicates } = loadYaml(body.toString('utf8'));
    return { object, duplicateFields: duplicates };
  } catch (e) {
    if (e instanceof YamlAliasError) throw errors.badRequest(`error decoding YAML: ${e.message}`);
    throw errors.badRequest(`error decoding YAML: ${(e as yaml.YAMLException).reason ?? (e as Error).message}`);
  }
}

/** YAML keys are sorted, as upstream's JSON-to-YAML conversion does. */
export function encodeBody(format: ResponseFormat, value: unknown, pretty: boolean): { contentType: string; body: string } {
  if (format === 'yaml') return { contentType: YAML_TYPE, body: yaml.dump(value, { noRefs: true, lineWidth: -1, sortKeys: true }) };
  return { contentType: JSON_TYPE, body: pretty ? `${JSON.stringify(value, null, 2)}\n` : JSON.stringify(value) };
}
