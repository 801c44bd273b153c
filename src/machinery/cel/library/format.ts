/**
 * Kubernetes' format library (library/format.go): named string formats
 * (`format.dns1123Label()`, `format.named('uuid')`) whose `validate(s)`
 * returns optional.none() when valid, or the list of upstream's messages.
 */
import { celFunc, celMethod, CelScalar, type CelValue } from '@bufbuild/cel';
import { isQualifiedName, isValidLabelValue, nameIsDNS1035Label, nameIsDNSLabel, nameIsDNSSubdomain } from '../../validation/names';
import { fn, method } from '../declarations';
import type { Library } from '../library';
import { opaqueKind } from '../opaque';
import { parseTimestamp } from '../values';
import { T } from '../types';
import { parseGoUrl } from './go-url';
import { none, OPTIONAL, some } from './optional';

interface NamedFormat {
  readonly name: string;
  readonly validate: (s: string) => string[];
}

export const FORMAT = opaqueKind<NamedFormat>('kubernetes.NamedFormat');

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function isDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

const check = (ok: boolean, message: string) => (ok ? [] : [message]);

/** By the names `format.named` accepts; each also has a `format.<name>()` function. */
export const namedFormats: Record<string, NamedFormat> = {
  dns1123Label: { name: 'DNS1123Label', validate: (s) => nameIsDNSLabel(s, false) },
  dns1123Subdomain: { name: 'DNS1123Subdomain', validate: (s) => nameIsDNSSubdomain(s, false) },
  dns1035Label: { name: 'DNS1035Label', validate: (s) => nameIsDNS1035Label(s, false) },
  qualifiedName: { name: 'QualifiedName', validate: isQualifiedName },
  dns1123LabelPrefix: { name: 'DNS1123LabelPrefix', validate: (s) => nameIsDNSLabel(s, true) },
  dns1123SubdomainPrefix: { name: 'DNS1123SubdomainPrefix', validate: (s) => nameIsDNSSubdomain(s, true) },
  dns1035LabelPrefix: { name: 'DNS1035LabelPrefix', validate: (s) => nameIsDNS1035Label(s, true) },
  labelValue: { name: 'LabelValue', validate: isValidLabelValue },
  uri: {
    name: 'URI',
    validate: (s) => {
      try {
        parseGoUrl(s, true);
        return [];
      } catch (err) {
        return [(err as Error).message];
      }
    },
  },
  uuid: { name: 'uuid', validate: (s) => check(UUID.test(s), 'does not match the UUID format') },
  byte: { name: 'byte', validate: (s) => check(BASE64.test(s), 'invalid base64') },
  date: { name: 'date', validate: (s) => check(isDate(s), 'invalid date') },
  datetime: { name: 'datetime', validate: (s) => check(parseTimestamp(s) !== undefined, 'invalid datetime') },
};

const wrap = (key: string) => FORMAT.wrap(namedFormats[key], key);

export const formatLibrary: Library = {
  name: 'format',
  declarations: [
    method('validate', 'format-validate', [FORMAT.type, T.string], T.optional(T.list(T.string))),
    fn('format.named', 'format-named', [T.string], T.optional(FORMAT.type)),
    ...Object.keys(namedFormats).map((k) => fn(`format.${k}`, `format.${k}`, [], FORMAT.type)),
  ],
  functions: [
    celMethod('validate', FORMAT.runtime, [CelScalar.STRING], OPTIONAL.runtime, function (s: string) {
      const errors = FORMAT.unwrap(this as CelValue).validate(s);
      return (errors.length ? some(errors as never) : none()) as never;
    }),
    celFunc('format.named', [CelScalar.STRING], OPTIONAL.runtime, (name: string) => (Object.hasOwn(namedFormats, name) ? some(wrap(name) as never) : none()) as never),
    ...Object.keys(namedFormats).map((k) => celFunc(`format.${k}`, [], FORMAT.runtime, () => wrap(k) as never)),
  ],
};
