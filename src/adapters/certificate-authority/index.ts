export { FileCertificateAuthority, signingAuthority } from './file-ca';
