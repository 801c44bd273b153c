/**
 * The text formats of the CRD format registry whose Go parsers have rules of
 * their own: url.ParseRequestURI, net/mail.ParseAddress, time.Parse of
 * "2006-01-02", time.ParseDuration (with go-openapi's "3 days" fallback) and
 * go-openapi's date-time check.
 */
import { parseIP } from './net-formats';

const hasControl = (s: string) => /[\u0000-\u001f\u007f]/.test(s);
const validPercentEscapes = (s: string) => !/%(?![0-9a-fA-F]{2})/.test(s);

/** Characters Go's url package lets stand unescaped in a host (besides alphanumerics). */
const hostChars = /^[A-Za-z0-9\-._~!$&'()*+,;=:[\]<>"%\u0080-\uffff]*$/;
const userinfoChars = /^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/;

function validPort(colonPort: string): boolean {
  return colonPort === '' || (colonPort[0] === ':' && /^\d*$/.test(colonPort.slice(1)));
}

function validHost(host: string): boolean {
  if (host.startsWith('[')) {
    const close = host.lastIndexOf(']');
    if (close < 0) return false;
    if (!validPort(host.slice(close + 1))) return false;
  } else {
    const colon = host.lastIndexOf(':');
    if (colon >= 0 && !validPort(host.slice(colon))) return false;
  }
  return hostChars.test(host) && validPercentEscapes(host);
}

/** url.ParseRequestURI: an absolute URI or an absolute path. */
export function isRequestURI(raw: string): boolean {
  if (hasControl(raw) || raw === '') return false;
  if (raw === '*') return true;
  let rest = raw;
  let scheme = '';
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(raw);
  if (m) {
    scheme = m[1];
    rest = raw.slice(m[0].length);
  } else if (raw.startsWith(':')) return false;
  const q = rest.indexOf('?');
  if (q >= 0) rest = rest.slice(0, q);
  if (!rest.startsWith('/')) return scheme !== '';
  if (scheme && rest.startsWith('//')) {
    const afterSlashes = rest.slice(2);
    const slash = afterSlashes.indexOf('/');
    const authority = slash < 0 ? afterSlashes : afterSlashes.slice(0, slash);
    rest = slash < 0 ? '' : afterSlashes.slice(slash);
    const at = authority.lastIndexOf('@');
    if (at >= 0 && !userinfoChars.test(authority.slice(0, at))) return false;
    if (!validHost(at >= 0 ? authority.slice(at + 1) : authority)) return false;
  }
  return validPercentEscapes(rest);
}

const atext = (c: string) => (c >= '!' && c <= '~' && !'()<>[]:;@\\,".'.includes(c)) || c.codePointAt(0)! > 0x7f;

/** A dot-atom: atext runs joined by single dots. */
const isDotAtom = (s: string) => s.length > 0 && s.split('.').every((part) => part.length > 0 && [...part].every(atext));

function isQuotedString(s: string): boolean {
  if (s.length < 2 || s[0] !== '"' || s[s.length - 1] !== '"') return false;
  const inner = s.slice(1, -1);
  return !/(^|[^\\])(\\\\)*"/.test(inner) && !hasControl(inner.replace(/\t/g, ''));
}

function isAddrSpec(s: string): boolean {
  const at = s.lastIndexOf('@');
  if (at <= 0) return false;
  const local = s.slice(0, at);
  const domain = s.slice(at + 1);
  if (!isDotAtom(local) && !isQuotedString(local)) return false;
  if (domain.startsWith('[') && domain.endsWith(']')) return parseIP(domain.slice(1, -1), false);
  return isDotAtom(domain);
}

/** net/mail.ParseAddress: `addr@domain` or `Display Name <addr@domain>`, comments aside. */
export function isEmail(raw: string): boolean {
  const s = raw.replace(/\([^()]*\)/g, ' ').trim();
  if (isAddrSpec(s)) return true;
  const m = /^(.*?)\s*<([^<>]*)>$/.exec(s);
  if (!m) return false;
  const name = m[1].trim();
  const words = name.match(/"(?:[^"\\]|\\.)*"|[^\s"]+/g) ?? [];
  if (name !== '' && words.join(' ').replace(/\s+/g, '') !== name.replace(/\s+/g, '')) return false;
  const phraseOk = words.every((w) => isQuotedString(w) || [...w].every((c) => c === '.' || atext(c)));
  return phraseOk && isAddrSpec(m[2].trim());
}

const daysIn = (month: number, year: number) => {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
};

/** time.Parse("2006-01-02", s). */
export function isDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return month >= 1 && month <= 12 && day >= 1 && day <= daysIn(month, year);
}

const dateTimeTail = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/;

/** go-openapi's IsDateTime: a date, a `t`, then hh:mm:ss[.frac] and a zone, compared field by field. */
export function isDateTime(s: string): boolean {
  if (s.length < 4) return false;
  const parts = s.toLowerCase().split('t');
  if (parts.length < 2 || !isDate(parts[0])) return false;
  const m = dateTimeTail.exec(parts[1]);
  return !!m && m[1] <= '23' && m[2] <= '59' && m[3] <= '59';
}

const goUnits: Record<string, number> = { ns: 1, us: 1e3, 'µs': 1e3, 'μs': 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };
const maxDuration = 2 ** 63 - 1;

/** time.ParseDuration: signed sequence of decimal numbers with units, e.g. "1h30m", "-1.5s". */
export function isGoDuration(s: string): boolean {
  let rest = s.replace(/^[-+]/, '');
  if (rest === '0') return true;
  if (rest === '') return false;
  let total = 0;
  while (rest !== '') {
    const m = /^(\d*)(\.(\d*))?([^0-9.]*)/.exec(rest)!;
    if (m[1] === '' && (m[3] ?? '') === '') return false;
    const unit = goUnits[m[4]];
    if (unit === undefined) return false;
    total += Number(`${m[1] || '0'}.${m[3] || '0'}`) * unit;
    if (total > maxDuration) return false;
    rest = rest.slice(m[0].length);
  }
  return true;
}

const unitVariants = [['ns', 'nano'], ['us', 'µs', 'micro'], ['ms', 'milli'], ['s', 'sec'], ['m', 'min'], ['h', 'hr', 'hour'], ['d', 'day'], ['w', 'wk', 'week']];

/** go-openapi's ParseDuration: Go's syntax, or any "<n> <unit>" pairs such as "3 days". */
export function isDuration(s: string): boolean {
  if (isGoDuration(s)) return true;
  let ok = false;
  for (const m of s.matchAll(/(\d+)\s*([A-Za-zµ]+)/g)) {
    // strconv.Atoi fails past int64, and then the whole value is refused.
    if (BigInt(m[1]) > BigInt(maxDuration)) return false;
    const unit = m[2].toLowerCase().trim();
    for (const variants of unitVariants) {
      variants.forEach((v, i) => {
        if ((i === variants.length - 1 && unit.startsWith(v)) || v === unit) ok = true;
      });
    }
  }
  return ok;
}
