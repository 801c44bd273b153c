import { CryptoParseError } from '../../../src/ports/crypto.port';
import { parsePem } from '../../../src/adapters/crypto/pem';
import { makeCaCertPem, makeCsrPem } from '../../support/crypto-fixtures';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const bytes = (s: string) => new Uint8Array(Buffer.from(s));

describe('parsePem', () => {
  it('returns no blocks for text without armor', () => {
    expect(parsePem('')).toEqual([]);
    expect(parsePem('just some text\nwith lines\n')).toEqual([]);
  });

  it('decodes multiple blocks in order and ignores text around them', async () => {
    const ca = await makeCaCertPem();
    const csr = await makeCsrPem({ keyType: 'ECDSAP256' });
    const text = `leading junk\n${ca.pem}\nbetween: blocks\n\n${csr.pem}\ntrailing junk`;
    const blocks = parsePem(text);
    expect(blocks.map((b) => b.type)).toEqual(['CERTIFICATE', 'CERTIFICATE REQUEST']);
    expect(blocks[0].bytes).toEqual(ca.der);
    expect(blocks[1].bytes).toEqual(csr.der);
    expect(blocks.every((b) => Object.keys(b.headers).length === 0)).toBe(true);
  });

  it('captures RFC 1421 headers', () => {
    const text = [
      '-----BEGIN RSA PRIVATE KEY-----',
      'Proc-Type: 4,ENCRYPTED',
      'DEK-Info:   AES-128-CBC,ABCDEF  ',
      '',
      b64('hello world'),
      '-----END RSA PRIVATE KEY-----',
    ].join('\n');
    expect(parsePem(text)).toEqual([
      { type: 'RSA PRIVATE KEY', headers: { 'Proc-Type': '4,ENCRYPTED', 'DEK-Info': 'AES-128-CBC,ABCDEF' }, bytes: bytes('hello world') },
    ]);
  });

  it('tolerates CRLF, trailing whitespace and wrapped base64 with spaces', () => {
    const body = b64('the quick brown fox');
    const text = `-----BEGIN X-----  \r\n${body.slice(0, 10)} \t\r\n${body.slice(10)}\r\n-----END X----- \r\n`;
    expect(parsePem(text)).toEqual([{ type: 'X', headers: {}, bytes: bytes('the quick brown fox') }]);
  });

  it('accepts an empty body', () => {
    expect(parsePem('-----BEGIN EMPTY-----\n-----END EMPTY-----')).toEqual([{ type: 'EMPTY', headers: {}, bytes: new Uint8Array() }]);
  });

  it('only recognizes BEGIN at the start of a line', () => {
    expect(parsePem(`x -----BEGIN X-----\n${b64('a')}\n-----END X-----\n`)).toEqual([]);
  });

  it.each([
    ['BEGIN line without closing dashes', `-----BEGIN X\n${b64('a')}\n-----END X-----\n`],
    ['missing END', `-----BEGIN X-----\n${b64('a')}\n`],
    ['END type mismatch', `-----BEGIN X-----\n${b64('a')}\n-----END Y-----\n`],
    ['text after END dashes', `-----BEGIN X-----\n${b64('a')}\n-----END X-----junk\n`],
    ['invalid base64 character', `-----BEGIN X-----\nab!d\n-----END X-----\n`],
    ['missing base64 padding', `-----BEGIN X-----\nYQ\n-----END X-----\n`],
    ['padding in the middle', `-----BEGIN X-----\nYQ==YQ==\n-----END X-----\n`],
    ['good block then a bad one', `-----BEGIN X-----\n${b64('a')}\n-----END X-----\n-----BEGIN Y-----\n%%%%\n-----END Y-----\n`],
  ])('%s → CryptoParseError', (_name, text) => {
    expect(() => parsePem(text)).toThrow(CryptoParseError);
  });
});
