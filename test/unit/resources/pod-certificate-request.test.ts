import { isDNS1123Subdomain, isQualifiedName } from '../../../src/machinery/validation/names';
import type { KObject } from '../../../src/machinery/object';
import { makeCsrPem, type FixtureKeyType } from '../../support/crypto-fixtures';
import { b64, cause, causes, runCreate, runUpdate, tamperSignature } from './certificates-helpers';
import { condition, createErrs, ctx, def, pcr, stored } from './pod-certificate-request.support';

describe('PodCertificateRequest definition', () => {
  it('is namespaced certificates.svc.io/v1 with /status and signer, pod and node field selectors', () => {
    expect(def).toMatchObject({
      group: 'certificates.svc.io', version: 'v1', kind: 'PodCertificateRequest', plural: 'podcertificaterequests',
      namespaced: true, shortNames: [], categories: [], allowCreateOnUpdate: false, allowUnconditionalUpdate: false,
    });
    expect(def.subresources.status.verbs).toEqual(['get', 'patch', 'update']);
    expect(Object.keys(def.fieldSelectors).sort()).toEqual(['spec.nodeName', 'spec.podName', 'spec.signerName']);
    expect(def.table).toBeUndefined();
  });
});

describe('create', () => {
  it.each<FixtureKeyType>(['ECDSAP256', 'ECDSAP384', 'ECDSAP521', 'ED25519', 'RSA3072', 'RSA4096'])('accepts a %s stub request', async (keyType) => {
    expect(await createErrs({}, keyType)).toEqual([]);
  });

  it('defaults maxExpirationSeconds to 86400 and starts with an empty status', async () => {
    const input = { ...(await pcr()), status: { certificateChain: 'x' } };
    const { obj, errs } = await runCreate(def, input, ctx);
    expect(errs).toEqual([]);
    expect((obj.spec as Record<string, unknown>).maxExpirationSeconds).toBe(86400);
    expect(obj.status).toEqual({});
  });

  it('requires maxExpirationSeconds when nothing defaulted it', async () => {
    const obj = (await pcr()) as unknown as KObject;
    expect(causes(await def.strategy.validate(obj, ctx))).toEqual([cause('spec.maxExpirationSeconds', 'FieldValueRequired', 'Required value: must be set')]);
  });

  it.each([
    [3599, 'example.com/signer', 'Invalid value: 3599: must be in the range [3600, 7862400]'],
    [7862401, 'example.com/signer', 'Invalid value: 7862401: must be in the range [3600, 7862400]'],
    [86401, 'svc.io/apiserver-client-pod', 'Invalid value: 86401: must be in the range [3600, 86400]'],
    [86401, 'foo.svc.io/signer', 'Invalid value: 86401: must be in the range [3600, 86400]'],
  ])('maxExpirationSeconds %d for %s is rejected', async (maxExpirationSeconds, signerName, message) => {
    expect(await createErrs({ maxExpirationSeconds, signerName })).toEqual([cause('spec.maxExpirationSeconds', 'FieldValueInvalid', message)]);
  });

  it('allows up to 91 days outside svc.io', async () => {
    expect(await createErrs({ maxExpirationSeconds: 7862400, signerName: 'notsvc.io/signer' })).toEqual([]);
    expect(await createErrs({ maxExpirationSeconds: 3600, signerName: 'svc.io/x' })).toEqual([]);
  });

  it('validates signerName like other signer names', async () => {
    expect(await createErrs({ signerName: '' })).toEqual([cause('spec.signerName', 'FieldValueRequired', 'Required value')]);
    expect(await createErrs({ signerName: 'nodomain' })).toEqual([
      cause('spec.signerName', 'FieldValueInvalid', `Invalid value: "nodomain": must be a fully qualified domain and path of the form 'example.com/signer-name'`),
    ]);
  });

  it.each(['podName', 'serviceAccountName', 'nodeName'])('%s must be a DNS subdomain', async (field) => {
    for (const value of ['', 'Bad_Name']) {
      expect(await createErrs({ [field]: value })).toEqual([
        cause(`spec.${field}`, 'FieldValueInvalid', `Invalid value: ${JSON.stringify(value)}: ${isDNS1123Subdomain(value)[0]}`),
      ]);
    }
  });

  it.each(['podUID', 'serviceAccountUID', 'nodeUID'])('%s must be set and at most 128 bytes', async (field) => {
    expect(await createErrs({ [field]: '' })).toEqual([cause(`spec.${field}`, 'FieldValueInvalid', 'Invalid value: "": must not be empty')]);
    expect(await createErrs({ [field]: 'u'.repeat(129) })).toEqual([cause(`spec.${field}`, 'FieldValueTooLong', 'Too long: may not be more than 128 bytes')]);
  });

  it('checks unverifiedUserAnnotations keys: qualified and domain-prefixed, within the size limit', async () => {
    expect(await createErrs({ unverifiedUserAnnotations: { 'example.com/Key': 'v' } })).toEqual([]);
    const path = 'spec.unverifiedUserAnnotations';
    expect(await createErrs({ unverifiedUserAnnotations: { plain: 'v' } })).toEqual([
      cause(path, 'FieldValueInvalid', 'Invalid value: "plain": must be a domain-prefixed key (such as "acme.io/foo")'),
    ]);
    expect(await createErrs({ unverifiedUserAnnotations: { 'example.com/-x': 'v' } })).toEqual([
      cause(path, 'FieldValueInvalid', `Invalid value: "example.com/-x": ${isQualifiedName('example.com/-x')[0]}`),
    ]);
    expect(await createErrs({ unverifiedUserAnnotations: { 'example.com/k': 'v'.repeat(256 * 1024) } })).toEqual([
      cause(path, 'FieldValueTooLong', 'Too long: may not be more than 262144 bytes'),
    ]);
  });

  describe('stubPKCS10Request', () => {
    const path = 'spec.stubPKCS10Request';
    it('is required', async () => {
      expect(await createErrs({ stubPKCS10Request: '' })).toEqual([cause(path, 'FieldValueRequired', 'Required value')]);
    });
    it('must be DER PKCS#10', async () => {
      const { pem } = await makeCsrPem({ keyType: 'ECDSAP256' });
      expect(await createErrs({ stubPKCS10Request: b64(pem) })).toEqual([
        cause(path, 'FieldValueInvalid', 'Invalid value: must be a valid DER-encoded PKCS#10 certificate request'),
      ]);
    });
    it('must be at most 10 KiB', async () => {
      expect(await createErrs({ stubPKCS10Request: b64(new Uint8Array(10241)) })).toEqual([cause(path, 'FieldValueTooLong', 'Too long: may not be more than 10240 bytes')]);
    });
    it('rejects RSA 2048 keys', async () => {
      expect(await createErrs({}, 'RSA2048')).toEqual([cause(path, 'FieldValueInvalid', 'Invalid value: "2048-bit modulus": RSA keys must have modulus size 3072 or 4096')]);
    });
    it('rejects unknown key algorithms', async () => {
      const { der } = await makeCsrPem({ keyType: 'ED25519', cn: '' });
      const hex = Buffer.from(der).toString('hex').replace('06032b6570', '06032b657f');
      expect(await createErrs({ stubPKCS10Request: Buffer.from(hex, 'hex').toString('base64') })).toEqual([
        cause(path, 'FieldValueInvalid', 'Invalid value: unknown public key type; supported types are Ed25519, ECDSA, and RSA'),
      ]);
    });
    it('must carry a verifying signature', async () => {
      const { der } = await makeCsrPem({ keyType: 'RSA3072', cn: '' });
      expect(await createErrs({ stubPKCS10Request: b64(tamperSignature(der)) })).toEqual([
        cause(path, 'FieldValueInvalid', 'Invalid value: could not verify the PKCS#10 request signature'),
      ]);
    });
    it('answers 400 when not base64', async () => {
      await expect(runCreate(def, await pcr({ stubPKCS10Request: '@@@@' }), ctx)).rejects.toMatchObject({ code: 400 });
    });
  });
});

describe('main-resource update', () => {
  it('rejects any spec change and keeps the stored status', async () => {
    const old = await stored({ conditions: [condition('Denied')] });
    const ok = await runUpdate(def, { ...old, metadata: { ...old.metadata, labels: { a: 'b' } }, status: {} }, old, ctx);
    expect(ok.errs).toEqual([]);
    expect(ok.obj.status).toEqual(old.status);
    const changed = await runUpdate(def, { ...old, spec: { ...(old.spec as object), podName: 'other' } }, old, ctx);
    expect(causes(changed.errs)).toEqual([cause('spec', 'FieldValueInvalid', 'Invalid value: field is immutable')]);
  });

  it('treats an omitted maxExpirationSeconds as the default', async () => {
    const old = await stored();
    const spec = { ...(old.spec as Record<string, unknown>) };
    delete spec.maxExpirationSeconds;
    expect((await runUpdate(def, { ...old, spec }, old, ctx)).errs).toEqual([]);
  });
});
