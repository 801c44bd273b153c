import { run } from './run-expression';

describe('regex library (upstream library/regex.go)', () => {
  it.each([
    ["'abc 123'.find('[0-9]+')", '123'],
    ["'abc'.find('[0-9]+')", ''],
    ["'123 abc 456'.findAll('[0-9]+')", ['123', '456']],
    ["'123 abc 456'.findAll('[0-9]+', 1)", ['123']],
    ["'123 abc 456'.findAll('[0-9]+', 0)", []],
    ["'abc'.findAll('x*')", ['', '', '', '']],
    ["'ABC'.find('(?i)b')", 'B'],
    ["'key=value'.find('(?P<k>[a-z]+)=')", 'key='],
  ])('%s', (expr, value) => {
    expect(run(expr)).toEqual({ value });
  });

  it('fails on patterns RE2 rejects', () => {
    expect(run("'abc'.find('[')")).toEqual({ error: expect.stringContaining('missing closing ]') });
    // backreferences are not RE2
    expect(run("'aa'.find('(a)\\\\1')")).toEqual({ error: expect.stringContaining('error parsing regexp') });
  });
});

describe('url library (upstream library/urls.go)', () => {
  it.each([
    ["url('https://user:pass@example.com:8080/a%20b/c?x=1&x=2&y#frag').getScheme()", 'https'],
    ["url('https://example.com:8080/p').getHost()", 'example.com:8080'],
    ["url('https://example.com:8080/p').getHostname()", 'example.com'],
    ["url('https://example.com:8080/p').getPort()", '8080'],
    ["url('https://example.com/p').getPort()", ''],
    ["url('https://[::1]:80/p').getHostname()", '::1'],
    ["url('https://[::1]:80/p').getHost()", '[::1]:80'],
    ["url('https://example.com/a%20b/c').getEscapedPath()", '/a%20b/c'],
    ["url('https://example.com/a b').getEscapedPath()", '/a%20b'],
    ["url('/just/a/path').getScheme()", ''],
    ["url('https://example.com/?x=1&x=2&y=a+b').getQuery()", { x: ['1', '2'], y: ['a b'] }],
    ["url('https://example.com/p') == url('https://example.com/p')", true],
    ["isURL('https://example.com')", true],
    ["isURL('example.com')", false],
    ["isURL('')", false],
    ["isURL('http://a b.com/')", true],
    ["isURL('https://example.com:port/')", false],
  ])('%s', (expr, value) => {
    expect(run(expr)).toEqual({ value });
  });

  it('reports ParseRequestURI errors as upstream does', () => {
    expect(run("url('example.com').getScheme()")).toEqual({ error: 'URL parse error during conversion from string: parse "example.com": invalid URI for request' });
    expect(run("url('').getScheme()")).toEqual({ error: 'URL parse error during conversion from string: parse "": empty url' });
  });
});
