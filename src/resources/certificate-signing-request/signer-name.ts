/**
 * Signer names (`example.com/signer-name`), shared by CertificateSigningRequest,
 * PodCertificateRequest and ClusterTrustBundle, with upstream's messages
 * (pkg/apis/core/validation/names.go ValidateSignerName).
 */
import { FieldError, FieldPath, fieldErrors } from '../../machinery/field-errors';
import {
  byteLength,
  DNS1123_LABEL_MAX_LENGTH,
  DNS1123_SUBDOMAIN_MAX_LENGTH,
  isDNS1123Label,
  isDNS1123Subdomain,
} from '../../machinery/validation/names';

/** The reserved signer domain (upstream `kubernetes.io`). */
export const RESERVED_SIGNER_DOMAIN = 'svc.io';

/** Signers owned by the project: host `svc.io` or any `*.svc.io`. */
export function isReservedSignerName(signerName: string): boolean {
  const slash = signerName.indexOf('/');
  const host = slash < 0 ? signerName : signerName.slice(0, slash);
  return host === RESERVED_SIGNER_DOMAIN || host.endsWith(`.${RESERVED_SIGNER_DOMAIN}`);
}

// Room for `<fqdn>/<namespace>.<name>`: 253 + 1 + (253 + 63 + 1).
const MAX_PATH_LENGTH = DNS1123_SUBDOMAIN_MAX_LENGTH + DNS1123_LABEL_MAX_LENGTH + 1;
const MAX_SIGNER_NAME_LENGTH = DNS1123_SUBDOMAIN_MAX_LENGTH + MAX_PATH_LENGTH + 1;

export function validateSignerName(path: FieldPath | string, signerName: string): FieldError[] {
  if (signerName.length === 0) return [fieldErrors.required(path)];
  const segments = signerName.split('/');
  if (segments.length !== 2) {
    return [fieldErrors.invalid(path, signerName, "must be a fully qualified domain and path of the form 'example.com/signer-name'")];
  }
  const [domain, signerPath] = segments;
  const errs: FieldError[] = [];
  if (byteLength(domain) > DNS1123_SUBDOMAIN_MAX_LENGTH) errs.push(fieldErrors.tooLong(path, DNS1123_SUBDOMAIN_MAX_LENGTH));

  // Only the first bad label is reported: later ones would repeat the same messages.
  const domainLabels = domain.split('.');
  for (const label of domainLabels) {
    const msgs = isDNS1123Label(label);
    if (msgs.length === 0) continue;
    for (const m of msgs) errs.push(fieldErrors.invalid(path, domain, `validating label ${JSON.stringify(label)}: ${m}`));
    break;
  }
  if (domainLabels.length < 2) {
    errs.push(fieldErrors.invalid(path, domain, 'should be a domain with at least two segments separated by dots'));
  }
  for (const label of signerPath.split('.')) {
    const msgs = isDNS1123Subdomain(label);
    if (msgs.length === 0) continue;
    for (const m of msgs) errs.push(fieldErrors.invalid(path, signerPath, `validating label ${JSON.stringify(label)}: ${m}`));
    break;
  }
  if (byteLength(signerName) > MAX_SIGNER_NAME_LENGTH) errs.push(fieldErrors.tooLong(path, MAX_SIGNER_NAME_LENGTH));
  return errs;
}
