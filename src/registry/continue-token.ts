/**
 * Continue tokens in upstream's format: base64url (no padding) of
 * `{"v":"meta.k8s.io/v1","rv":<rev>,"start":"<key after the prefix>\u0000"}`,
 * so tokens keep meaning across a switch between servers.
 */
import { errors } from '../machinery/status';

const version = 'meta.k8s.io/v1';

export interface ContinuePosition {
  /** Revision of the first page; -1 means "latest". */
  rv: number;
  /** Key to start from, relative to the resource prefix. */
  start: string;
}

export function encodeContinue(rv: number, lastKeyRelative: string): string {
  return Buffer.from(JSON.stringify({ v: version, rv, start: `${lastKeyRelative}\u0000` })).toString('base64url');
}

function invalid(reason: string): never {
  throw errors.badRequest(`invalid continue token: ${reason}`);
}

export function decodeContinue(token: string): ContinuePosition {
  let parsed: { v?: unknown; rv?: unknown; start?: unknown };
  try {
    if (!/^[A-Za-z0-9_-]*={0,2}$/.test(token)) throw new Error('illegal base64 data');
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch (e) {
    invalid(`continue key is not valid: ${(e as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null) invalid('continue key is not valid: not an object');
  if (parsed.v !== version) {
    invalid(`continue key is not valid: server does not recognize this encoded version "${String(parsed.v)}"`);
  }
  const rv = parsed.rv;
  if (typeof rv !== 'number' || !Number.isSafeInteger(rv) || rv === 0 || rv < -1) {
    invalid(`continue key is not valid: incorrect encoded start resourceVersion (version ${version})`);
  }
  const start = parsed.start;
  if (typeof start !== 'string' || start === '') invalid(`continue key is not valid: encoded start key empty (version ${version})`);
  const bare = start.replace(/\u0000$/, '');
  if (!isCleanRelativePath(bare)) invalid(`continue key is not valid: invalid start key (version ${version})`);
  return { rv, start };
}

/** Guards against path traversal: no `..`, `.`, empty segments or leading slash. */
function isCleanRelativePath(p: string): boolean {
  if (p.startsWith('/')) return false;
  return p.split('/').every((seg) => seg !== '' && seg !== '.' && seg !== '..');
}
