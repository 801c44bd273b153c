/** Where audit events go: one JSON line each, written without making the request wait. */
export interface AuditSinkPort {
  write(line: string): void;
  close(): Promise<void>;
}
