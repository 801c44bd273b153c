import { CryptoParseError, type PemBlock } from '../../ports/crypto.port';

/*
 * PEM armor parser following Go's encoding/pem.Decode line rules (BEGIN at a
 * line start, RFC 1421 headers, END type must match, padded std base64 with
 * whitespace ignored). One deliberate difference: where Go silently skips a
 * malformed block, we throw, because the port promises an error.
 */

const BEGIN = '-----BEGIN ';
const END = '-----END ';
const DASHES = '-----';
// Padded standard base64 only (Go uses base64.StdEncoding); Buffer.from alone is too lenient.
const STD_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Go's getLine: the line at `from` without trailing spaces, tabs and CR, and where the next line starts. */
function getLine(text: string, from: number): { line: string; next: number } {
  const nl = text.indexOf('\n', from);
  const end = nl < 0 ? text.length : nl;
  return { line: text.slice(from, end).replace(/[ \t\r]+$/, ''), next: nl < 0 ? text.length : nl + 1 };
}

/** Index of the next "-----BEGIN " that starts a line, or -1. */
function findBegin(text: string, from: number): number {
  if (text.startsWith(BEGIN, from) && (from === 0 || text[from - 1] === '\n')) return from;
  const i = text.indexOf('\n' + BEGIN, from);
  return i < 0 ? -1 : i + 1;
}

function decodeBody(body: string, type: string): Uint8Array {
  const b64 = body.replace(/[ \t\r\n]/g, '');
  if (!STD_BASE64.test(b64)) throw new CryptoParseError(`PEM block ${JSON.stringify(type)}: invalid base64 body`);
  return new Uint8Array(Buffer.from(b64, 'base64'));
}

export function parsePem(text: string): PemBlock[] {
  const blocks: PemBlock[] = [];
  let pos = 0;
  for (;;) {
    const start = findBegin(text, pos);
    if (start < 0) return blocks;

    const typeLine = getLine(text, start + BEGIN.length);
    if (!typeLine.line.endsWith(DASHES)) throw new CryptoParseError('PEM BEGIN line does not end with "-----"');
    const type = typeLine.line.slice(0, -DASHES.length);

    // Headers are "Key: value" lines; the first line without a colon starts the body.
    const headers: Record<string, string> = {};
    let rest = typeLine.next;
    for (;;) {
      if (rest >= text.length) throw new CryptoParseError(`PEM block ${JSON.stringify(type)} has no END line`);
      const { line, next } = getLine(text, rest);
      const colon = line.indexOf(':');
      if (colon < 0) break;
      headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
      rest = next;
    }

    // As in Go, an END line directly after the BEGIN line is only accepted when there are no headers.
    let endIndex: number;
    let trailer: number;
    if (Object.keys(headers).length === 0 && text.startsWith(END, rest)) {
      endIndex = rest;
      trailer = rest + END.length;
    } else {
      const i = text.indexOf('\n' + END, rest);
      if (i < 0) throw new CryptoParseError(`PEM block ${JSON.stringify(type)} has no END line`);
      endIndex = i;
      trailer = i + 1 + END.length;
    }
    const expected = type + DASHES;
    if (!text.startsWith(expected, trailer)) throw new CryptoParseError(`PEM END line does not match BEGIN ${JSON.stringify(type)}`);
    const after = getLine(text, trailer + expected.length);
    if (after.line.length !== 0) throw new CryptoParseError(`PEM END line for ${JSON.stringify(type)} has trailing text`);

    blocks.push({ type, headers, bytes: decodeBody(text.slice(rest, endIndex), type) });
    pos = after.next;
  }
}
