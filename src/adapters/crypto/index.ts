export { WebCryptoAdapter, ensureX509CryptoProvider } from './webcrypto.adapter';
export { parsePem } from './pem';
export { classifyPublicKey } from './public-key-type';
export { podCertificateVerifier, type PodCertificateCheck } from './pod-certificate';
