/** CertificateSigningRequest: certificates.svc.io/v1, cluster-scoped, with /status and /approval. */
import type { ResourceDefinition } from '../../machinery/resource-definition';
import { validatePathSegmentName } from '../../machinery/validation/names';
import { CertificateSigningRequest } from './certificate-signing-request.types';
import {
  validateCsrApprovalUpdate,
  validateCsrCreate,
  validateCsrStatusUpdate,
  validateCsrUpdate,
} from './certificate-signing-request.validation';
import {
  canonicalizeCsr,
  prepareCsrApprovalUpdate,
  prepareCsrForCreate,
  prepareCsrForUpdate,
  prepareCsrStatusUpdate,
} from './certificate-signing-request.strategy';
import { csrTable } from './certificate-signing-request.table';
import { admitCsr } from './certificate-signing-request.admission';

export const certificateSigningRequestDefinition: ResourceDefinition = {
  group: 'certificates.svc.io',
  version: 'v1',
  kind: 'CertificateSigningRequest',
  listKind: 'CertificateSigningRequestList',
  plural: 'certificatesigningrequests',
  singular: 'certificatesigningrequest',
  shortNames: ['csr'],
  categories: [],
  namespaced: false,
  schemaRoot: CertificateSigningRequest,
  strategy: {
    prepareForCreate: prepareCsrForCreate,
    prepareForUpdate: prepareCsrForUpdate,
    validate: validateCsrCreate,
    validateUpdate: validateCsrUpdate,
    canonicalize: canonicalizeCsr,
  },
  subresources: {
    status: { verbs: ['get', 'patch', 'update'], prepareForUpdate: prepareCsrStatusUpdate, validateUpdate: validateCsrStatusUpdate },
    approval: { verbs: ['get', 'patch', 'update'], prepareForUpdate: prepareCsrApprovalUpdate, validateUpdate: validateCsrApprovalUpdate },
  },
  fieldSelectors: { 'spec.signerName': (obj) => (obj.spec as { signerName?: string } | undefined)?.signerName ?? '' },
  table: csrTable,
  admit: admitCsr,
  usesGeneration: false,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  // Upstream accepts any CSR name; only the generic path-segment rule applies.
  validateName: validatePathSegmentName,
};
