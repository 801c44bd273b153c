export { FileAuditSink, type FileSinkOptions } from './file-sink';
