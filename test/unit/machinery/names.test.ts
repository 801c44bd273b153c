import {
  isConfigMapKey,
  isDNS1123Label,
  isDNS1123Subdomain,
  isDomainPrefixedPath,
  isQualifiedName,
  isValidLabelValue,
  nameIsDNSLabel,
  nameIsDNSSubdomain,
  validatePathSegmentName,
} from '../../../src/machinery/validation/names';
import { errorText } from '../../../src/machinery/field-errors';
import { DNS_LABEL_MSG, DNS_SUBDOMAIN_MSG, LABEL_VALUE_MSG, QNAME_NAME_MSG } from './messages';

describe('DNS names', () => {
  it('accepts subdomains and rejects the rest with the upstream text', () => {
    expect(isDNS1123Subdomain('example.com')).toEqual([]);
    expect(isDNS1123Subdomain('a-b.c1')).toEqual([]);
    expect(isDNS1123Subdomain('Bad_Name')).toEqual([DNS_SUBDOMAIN_MSG]);
    expect(isDNS1123Subdomain('')).toEqual([DNS_SUBDOMAIN_MSG]);
    expect(isDNS1123Subdomain('a..b')).toEqual([DNS_SUBDOMAIN_MSG]);
    expect(isDNS1123Subdomain('a'.repeat(253))).toEqual([]);
    expect(isDNS1123Subdomain('a'.repeat(254))).toEqual(['must be no more than 253 characters']);
    expect(isDNS1123Subdomain('-'.repeat(254))).toEqual(['must be no more than 253 characters', DNS_SUBDOMAIN_MSG]);
  });

  it('labels say "must not contain dots" for valid subdomains', () => {
    expect(isDNS1123Label('my-name')).toEqual([]);
    expect(isDNS1123Label('a.b')).toEqual(['must not contain dots']);
    expect(isDNS1123Label('A')).toEqual([DNS_LABEL_MSG]);
    expect(isDNS1123Label('a'.repeat(64))).toEqual(['must be no more than 63 characters']);
  });

  it('counts bytes, not characters', () => {
    expect(isDNS1123Label('é'.repeat(32))).toEqual(['must be no more than 63 characters', DNS_LABEL_MSG]);
  });

  it('prefix mode masks a trailing dash the way upstream does', () => {
    expect(nameIsDNSSubdomain('foo-', true)).toEqual([]);
    expect(nameIsDNSSubdomain('foo-', false)).toEqual([DNS_SUBDOMAIN_MSG]);
    expect(nameIsDNSLabel('a-', true)).toEqual([]);
    // The last two characters become 'a': "a.-" -> "aa"... and "-" alone stays.
    expect(nameIsDNSSubdomain('-', true)).toEqual([DNS_SUBDOMAIN_MSG]);
    expect(nameIsDNSLabel('x.-', true)).toEqual([]);
  });
});

describe('qualified names and label values', () => {
  it('checks prefix and name parts', () => {
    expect(isQualifiedName('app')).toEqual([]);
    expect(isQualifiedName('example.com/App_1')).toEqual([]);
    expect(isQualifiedName('a_')).toEqual([QNAME_NAME_MSG]);
    expect(isQualifiedName('/a')).toEqual(['prefix part must be non-empty']);
    expect(isQualifiedName('a/')).toEqual(['name part must be non-empty', QNAME_NAME_MSG]);
    expect(isQualifiedName('Bad/a')).toEqual([`prefix part ${DNS_SUBDOMAIN_MSG}`]);
    expect(isQualifiedName('a'.repeat(64))).toEqual(['name part must be no more than 63 characters']);
    expect(isQualifiedName('a/b/c')).toEqual([
      "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ]);
  });

  it('label values may be empty', () => {
    expect(isValidLabelValue('')).toEqual([]);
    expect(isValidLabelValue('My_value.1')).toEqual([]);
    expect(isValidLabelValue('a b')).toEqual([LABEL_VALUE_MSG]);
    expect(isValidLabelValue('a'.repeat(64))).toEqual(['must be no more than 63 characters']);
  });
});

describe('other keys', () => {
  it('config map keys', () => {
    const re =
      "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";
    expect(isConfigMapKey('key.name')).toEqual([]);
    expect(isConfigMapKey('a/b')).toEqual([re]);
    expect(isConfigMapKey('.')).toEqual(["must not be '.'"]);
    expect(isConfigMapKey('..')).toEqual(["must not be '..'"]);
    expect(isConfigMapKey('..a')).toEqual(["must not start with '..'"]);
    expect(isConfigMapKey('')).toEqual([re]);
  });

  it('domain-prefixed paths', () => {
    expect(isDomainPrefixedPath('spec.x', 'acme.io/foo')).toEqual([]);
    expect(isDomainPrefixedPath('spec.x', '').map(errorText)).toEqual(['spec.x: Required value']);
    expect(isDomainPrefixedPath('spec.x', 'foo').map(errorText)).toEqual([
      'spec.x: Invalid value: "foo": must be a domain-prefixed path (such as "acme.io/foo")',
    ]);
    expect(isDomainPrefixedPath('spec.x', 'acme.io/a b').map(errorText)).toEqual([
      `spec.x: Invalid value: "a b": Invalid path (regex used for validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')`,
    ]);
  });

  it('path segment names', () => {
    expect(validatePathSegmentName('Foo:Bar baz', false)).toEqual([]);
    expect(validatePathSegmentName('.', false)).toEqual(["may not be '.'"]);
    expect(validatePathSegmentName('..', false)).toEqual(["may not be '..'"]);
    expect(validatePathSegmentName('a/b%c', false)).toEqual(["may not contain '/'", "may not contain '%'"]);
    expect(validatePathSegmentName('..', true)).toEqual([]);
    expect(validatePathSegmentName('a%', true)).toEqual(["may not contain '%'"]);
  });
});
