import { run } from './run-expression';

describe('quantity library (upstream library/quantity.go)', () => {
  it.each([
    ["quantity('1Gi') == quantity('1024Mi')", true],
    ["quantity('1') == quantity('1000m')", true],
    ["quantity('1k') == quantity('1Ki')", false],
    ["isQuantity('1.5Gi')", true],
    ["isQuantity('1.5 Gi')", false],
    ["quantity('-1').sign()", -1],
    ["quantity('0').sign()", 0],
    ["quantity('100m').isInteger()", false],
    ["quantity('1k').isInteger()", true],
    ["quantity('1k').asInteger()", 1000],
    ["quantity('50m').asApproximateFloat()", 0.05],
    ["quantity('1Gi').isGreaterThan(quantity('1G'))", true],
    ["quantity('1G').isLessThan(quantity('1Gi'))", true],
    ["quantity('1G').compareTo(quantity('1000M'))", 0],
    ["quantity('1G').compareTo(quantity('1Gi'))", -1],
    ["quantity('1Gi').add(quantity('1Gi')) == quantity('2Gi')", true],
    ["quantity('1').add(2) == quantity('3')", true],
    ["quantity('1').sub(quantity('500m')) == quantity('0.5')", true],
    ["quantity('10').sub(3).asInteger()", 7],
  ])('%s', (expr, value) => {
    expect(run(expr)).toEqual({ value });
  });

  it.each([
    ["quantity('x').sign()", "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"],
    ["quantity('100m').asInteger()", 'cannot convert value to integer'],
  ])('%s fails', (expr, error) => {
    expect(run(expr)).toEqual({ error });
  });
});

describe('ip and cidr libraries (upstream library/ip.go, cidr.go)', () => {
  it.each([
    ["isIP('192.168.0.1')", true],
    ["isIP('192.168.0.01')", false],
    ["isIP('::ffff:1.2.3.4')", false],
    ["isIP('fe80::1%eth0')", false],
    ["isIP('2001:db8::1')", true],
    ["ip('192.168.0.1').family()", 4],
    ["ip('::1').family()", 6],
    ["ip.isCanonical('2001:db8::1')", true],
    ["ip.isCanonical('2001:DB8::1')", false],
    ["ip.isCanonical('2001:db8:0:0:0:0:0:1')", false],
    ["string(ip('2001:DB8:0:0:1:0:0:1'))", '2001:db8::1:0:0:1'],
    ["ip('0.0.0.0').isUnspecified()", true],
    ["ip('127.0.0.5').isLoopback()", true],
    ["ip('::1').isLoopback()", true],
    ["ip('224.0.0.1').isLinkLocalMulticast()", true],
    ["ip('ff02::1').isLinkLocalMulticast()", true],
    ["ip('169.254.1.1').isLinkLocalUnicast()", true],
    ["ip('fe80::1').isLinkLocalUnicast()", true],
    ["ip('10.0.0.1').isGlobalUnicast()", true],
    ["ip('255.255.255.255').isGlobalUnicast()", false],
    ["ip('1.2.3.4') == ip('1.2.3.4')", true],
    ["isCIDR('10.0.0.0/8')", true],
    ["isCIDR('10.0.0.0/33')", false],
    ["isCIDR('10.0.0.0')", false],
    ["cidr('10.0.0.0/8').containsIP(ip('10.1.2.3'))", true],
    ["cidr('10.0.0.0/8').containsIP('11.1.2.3')", false],
    ["cidr('10.0.0.0/8').containsIP('::1')", false],
    ["cidr('10.0.0.0/8').containsCIDR('10.1.0.0/16')", true],
    ["cidr('10.1.0.0/16').containsCIDR(cidr('10.0.0.0/8'))", false],
    ["string(cidr('10.1.2.3/8').masked())", '10.0.0.0/8'],
    ["string(cidr('10.1.2.3/8').ip())", '10.1.2.3'],
    ["cidr('10.1.2.3/8').prefixLength()", 8],
    ["string(cidr('2001:db8::1/32').masked())", '2001:db8::/32'],
  ])('%s', (expr, value) => {
    expect(run(expr)).toEqual({ value });
  });

  it('reports parse errors with upstream wording', () => {
    expect(run("ip('1.2.3').family()")).toEqual({ error: expect.stringMatching(/^IP Address "1.2.3" parse error during conversion from string: /) });
    expect(run("ip('::ffff:1.2.3.4').family()")).toEqual({ error: 'IPv4-mapped IPv6 address "::ffff:1.2.3.4" is not allowed' });
    expect(run("cidr('10.0.0.0').prefixLength()")).toEqual({ error: expect.stringMatching(/^network address parse error during conversion from string: /) });
  });
});
