import { parseFlags, FlagError } from '../../../src/config/flags';

describe('flags', () => {
  it('serves HTTPS on 6443 by default with the plain port off, RBAC and anonymous on', () => {
    const c = parseFlags([]);
    expect(c).toMatchObject({ securePort: 6443, port: 0, insecureBindAddress: '127.0.0.1', authorizationMode: 'RBAC', anonymousAuth: true });
    expect(c).toMatchObject({ maxRequestsInflight: 400, maxMutatingRequestsInflight: 200, flowControlSeats: 16, serviceAccountIssuers: ['https://kubernetes.default.svc.cluster.local'] });
    expect(c.apiAudiences).toEqual(c.serviceAccountIssuers);
  });

  it('takes --flow-control-seats and refuses zero', () => {
    expect(parseFlags(['--flow-control-seats', '4']).flowControlSeats).toBe(4);
    expect(() => parseFlags(['--flow-control-seats', '0'])).toThrow(FlagError);
  });

  it.each([['0.0.0.0'], ['10.1.2.3'], ['::']])('refuses a non-loopback --insecure-bind-address %s', (addr) => {
    expect(() => parseFlags(['--port', '8080', '--insecure-bind-address', addr])).toThrow(FlagError);
    expect(() => parseFlags(['--insecure-bind-address', addr])).toThrow('binds to a loopback address only');
  });

  it('takes booleans bare or with a value, repeated flags in order', () => {
    expect(parseFlags(['--anonymous-auth=false']).anonymousAuth).toBe(false);
    expect(parseFlags(['--anonymous-auth', 'false']).anonymousAuth).toBe(false);
    expect(parseFlags(['--anonymous-auth', '--port', '1']).anonymousAuth).toBe(true);
    const c = parseFlags(['--service-account-key-file', 'a.pem', '--service-account-key-file=b.pem', '--service-account-issuer', 'https://one', '--service-account-issuer', 'https://two']);
    expect(c.serviceAccountKeyFiles).toEqual(['a.pem', 'b.pem']);
    expect(c.serviceAccountIssuers).toEqual(['https://one', 'https://two']);
    expect(c.apiAudiences).toEqual(['https://one', 'https://two']);
    expect(parseFlags(['--service-account-max-token-expiration', '24h']).serviceAccountMaxTokenExpirationSeconds).toBe(86400);
  });

  it.each([
    [['--authorization-mode', 'Webhook'], 'want RBAC or AlwaysAllow'],
    [['--tls-cert-file', 'x.crt'], '--tls-cert-file and --tls-private-key-file go together'],
    [['--max-requests-inflight', '0'], 'invalid --max-requests-inflight'],
    [['--anonymous-auth=maybe'], 'want true or false'],
  ])('rejects %j', (argv, message) => {
    expect(() => parseFlags(argv)).toThrow(message);
  });
});
