export {
  decodeKubernetesProtobuf,
  KUBERNETES_PROTOBUF_CONTENT_TYPE,
  ProtobufDecodeError,
  type DecodedProtobuf,
  type ProtobufTypeDefaults,
} from './decode';
export { kubernetesProtoRoot, PROTOBUF_KINDS } from './schema';
