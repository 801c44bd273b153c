/** Where audit events go: one JSON line each, in batches that the buffered backend hands over one at a time. */
export interface AuditSinkPort {
  /** Appends the lines in order; resolves once they are written (the backend's back-pressure). */
  write(lines: string[]): Promise<void>;
  close(): Promise<void>;
}
