export { WebCryptoAdapter, ensureX509CryptoProvider } from './webcrypto.adapter';
export { parsePem } from './pem';
export { classifyPublicKey } from './public-key-type';
