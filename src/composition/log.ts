/** JSON log lines at kube-apiserver's levels; the server's one logger. */
import type { ServerConfig } from '../config/flags';

export type Log = ((level: string, msg: string, extra?: object) => void) & { enabled?(level: string): boolean };

export function logger(level: ServerConfig['logLevel']): Log {
  const order = ['debug', 'info', 'warn', 'error'];
  const enabled = (lvl: string) => order.indexOf(lvl) >= order.indexOf(level);
  const log: Log = (lvl, msg, extra = {}) => {
    if (enabled(lvl)) console.log(JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...extra }));
  };
  log.enabled = enabled;
  return log;
}
