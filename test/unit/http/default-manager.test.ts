/**
 * The default field manager is the User-Agent up to its first '/', printable characters only, at most 128 bytes;
 * the last agent's answer is kept, so it must never leak to a request with another agent.
 */
import type { Request } from 'express';
import { defaultManager } from '../../../src/adapters/http/options';

const req = (ua?: string) => ({ headers: ua === undefined ? {} : { 'user-agent': ua } }) as unknown as Request;

describe('defaultManager', () => {
  test('the agent up to its first slash, printable only, at most 128 characters', () => {
    expect(defaultManager(req('kubectl/v1.32.0 (linux/amd64) kubernetes/abc'))).toBe('kubectl');
    expect(defaultManager(req('caf\u00e9\u0007-client/1'))).toBe('caf-client');
    expect(defaultManager(req('x'.repeat(200)))).toBe('x'.repeat(128));
    expect(defaultManager(req())).toBe('');
  });

  test('requests from clients taking turns each get their own', () => {
    const agents = ['kubectl/v1.32.0', 'OpenAPI-Generator/31.0.0/python', 'kubectl/v1.32.0', 'node-fetch', '', 'node-fetch'];
    expect(agents.map((ua) => defaultManager(req(ua)))).toEqual(['kubectl', 'OpenAPI-Generator', 'kubectl', 'node-fetch', '', 'node-fetch']);
  });
});
