/**
 * The string formats custom resources are checked against: go-openapi's
 * strfmt.Default registry, which is exactly the set upstream's CRD validation
 * supports (as of 1.34, with k8s-short-name and k8s-long-name). Names match
 * with dashes removed ("date-time" is "datetime"), as the registry normalizes
 * them; any other format is ignored.
 */
import { isDate, isDateTime, isDuration, isEmail, isRequestURI } from './text-formats';
import { parseCIDR, parseIP, parseMAC } from './net-formats';

const hostnameRe =
  /^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9\-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$/u;
const utf8Length = (s: string) => Buffer.byteLength(s, 'utf8');

function isHostname(s: string): boolean {
  return hostnameRe.test(s) && utf8Length(s) <= 255 && s.split('.').every((label) => utf8Length(label) <= 63);
}

const uuidAny = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const uuid3 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const uuid4 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const uuid5 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;

/** ISBN-10 and ISBN-13 check digits, spaces and dashes ignored. */
function isISBN(s: string, version: 10 | 13): boolean {
  const d = s.replace(/[\s-]+/g, '');
  if (version === 10) {
    if (!/^(?:[0-9]{9}X|[0-9]{10})$/.test(d)) return false;
    let sum = 0;
    for (let i = 0; i < 9; i++) sum += (i + 1) * Number(d[i]);
    sum += d[9] === 'X' ? 100 : 10 * Number(d[9]);
    return sum % 11 === 0;
  }
  if (!/^[0-9]{13}$/.test(d)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += (i % 2 === 0 ? 1 : 3) * Number(d[i]);
  return Number(d[12]) - ((10 - (sum % 10)) % 10) === 0;
}

const creditCardRe = /^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11})$/;

/** Known card prefixes and lengths, then the Luhn checksum; non-digits are ignored. */
function isCreditCard(s: string): boolean {
  const d = s.replace(/[^0-9]+/g, '');
  if (!creditCardRe.test(d)) return false;
  let sum = 0;
  let double = false;
  for (let i = d.length - 1; i >= 0; i--) {
    let n = Number(d[i]);
    if (double) n = n * 2 >= 10 ? (n * 2) % 10 + 1 : n * 2;
    sum += n;
    double = !double;
  }
  return sum % 10 === 0;
}

const octet = '(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])';
const rgbRe = new RegExp(`^rgb\\(\\s*${octet}\\s*,\\s*${octet}\\s*,\\s*${octet}\\s*\\)$`);
const base64Re = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/;
const shortNameRe = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const longNameRe = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

const registry: Record<string, (s: string) => boolean> = {
  uri: isRequestURI,
  email: isEmail,
  hostname: isHostname,
  ipv4: (s) => parseIP(s, true) && s.includes('.'),
  ipv6: (s) => parseIP(s, false) && s.includes(':'),
  cidr: parseCIDR,
  mac: parseMAC,
  uuid: (s) => uuidAny.test(s),
  uuid3: (s) => uuid3.test(s),
  uuid4: (s) => uuid4.test(s),
  uuid5: (s) => uuid5.test(s),
  isbn: (s) => isISBN(s, 10) || isISBN(s, 13),
  isbn10: (s) => isISBN(s, 10),
  isbn13: (s) => isISBN(s, 13),
  creditcard: isCreditCard,
  ssn: (s) => s.length === 11 && /^\d{3}[- ]?\d{2}[- ]?\d{4}$/.test(s),
  hexcolor: (s) => /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(s),
  rgbcolor: (s) => rgbRe.test(s),
  byte: (s) => base64Re.test(s),
  password: () => true,
  date: isDate,
  duration: isDuration,
  datetime: isDateTime,
  bsonobjectid: (s) => /^[0-9a-fA-F]{24}$/.test(s),
  k8sshortname: (s) => s.length <= 63 && shortNameRe.test(s),
  k8slongname: (s) => s.length <= 253 && longNameRe.test(s),
};

const normalize = (format: string) => format.replace(/-/g, '');

/** Whether the registry knows this format (after dash removal). */
export const knownFormat = (format: string): boolean => Object.prototype.hasOwnProperty.call(registry, normalize(format));

/** Whether `value` is valid for a known `format`. */
export function validatesFormat(format: string, value: string): boolean {
  return registry[normalize(format)]?.(value) ?? true;
}
