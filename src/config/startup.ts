/**
 * Fatal start errors as a person reads them: one plain sentence on stderr
 * that names the flag or path at fault, and a non-zero exit. No JSON, no
 * stack trace.
 */

export function fatal(sentence: string, code = 1): never {
  process.stderr.write(`svc-apiserver: ${sentence}\n`);
  process.exit(code);
}

export function firstLine(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  return message.split('\n')[0];
}

/** Where a listen failed, as the flags that chose it: e.g. `--bind-address 127.0.0.1 --secure-port 6443`. */
export interface ListenFlags {
  addressFlag: string;
  address: string;
  portFlag: string;
  port: number;
}

export function listenError(at: ListenFlags, e: unknown): string {
  const where = `${at.addressFlag} ${at.address} ${at.portFlag} ${at.port}`;
  switch ((e as NodeJS.ErrnoException).code) {
    case 'EADDRINUSE':
      return `cannot listen on ${where}: another process already uses that address and port`;
    case 'EACCES':
      return `cannot listen on ${where}: permission denied (ports below 1024 need privileges)`;
    case 'EADDRNOTAVAIL':
      return `cannot listen on ${where}: ${at.address} is not an address of this machine`;
    default:
      return `cannot listen on ${where}: ${firstLine(e)}`;
  }
}
