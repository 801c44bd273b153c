export { JoseTokenAdapter, keyId } from './jose-token.adapter';
