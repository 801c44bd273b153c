/**
 * Static bearer tokens from `--token-auth-file`, upstream's CSV:
 * `token,user,uid,"group1,group2"` (groups optional). Unknown tokens get no
 * opinion, so the service-account authenticator may still claim them.
 */
import type { UserInfo } from '../../machinery/resource-definition';
import type { Authenticator, AuthnResult, Credentials } from './authenticator';

export class TokenFileError extends Error {}

/** One CSV record, with double-quoted fields ("" escapes a quote). */
function csvFields(line: string, lineNo: number): string[] {
  const fields: string[] = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let value = '';
      i++;
      for (;;) {
        if (i >= line.length) throw new TokenFileError(`line ${lineNo}: unterminated quoted field`);
        if (line[i] === '"') {
          if (line[i + 1] === '"') {
            value += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        value += line[i++];
      }
      fields.push(value);
      if (i < line.length && line[i] !== ',') throw new TokenFileError(`line ${lineNo}: extraneous text after a quoted field`);
      i++;
    } else {
      const end = line.indexOf(',', i);
      fields.push(end < 0 ? line.slice(i) : line.slice(i, end));
      i = end < 0 ? line.length + 1 : end + 1;
    }
  }
  return fields;
}

export function parseTokenFile(text: string): Map<string, UserInfo> {
  const tokens = new Map<string, UserInfo>();
  text.split(/\r?\n/).forEach((raw, idx) => {
    const line = raw.trim();
    if (!line || line.startsWith('#')) return;
    const f = csvFields(line, idx + 1);
    if (f.length < 3) throw new TokenFileError(`line ${idx + 1}: needs at least three columns (token,user,uid), found ${f.length}`);
    const [token, username, uid, groupList] = f;
    if (!token) throw new TokenFileError(`line ${idx + 1}: empty token`);
    if (tokens.has(token)) throw new TokenFileError(`line ${idx + 1}: duplicate token`);
    const groups = (groupList ?? '').split(',').map((g) => g.trim()).filter(Boolean);
    tokens.set(token, { username, uid, groups });
  });
  return tokens;
}

export function tokenFileAuthenticator(tokens: Map<string, UserInfo>): Authenticator {
  return {
    authenticate({ bearerToken }: Credentials): AuthnResult {
      if (!bearerToken) return undefined;
      // The file's own object: users are not changed once authenticated, and one object per token lets the
      // authorizer know the user again without building a key.
      const user = tokens.get(bearerToken);
      return user ? { user } : undefined;
    },
  };
}
