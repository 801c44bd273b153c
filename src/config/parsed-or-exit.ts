/** Command-line parsing as a person meets it: --help prints and exits 0, a bad flag is one sentence and exit 2. */
import { FlagError, HelpRequested } from './flag-error';
import { fatal } from './startup';

export function parsedOrExit<T>(parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    if (e instanceof HelpRequested) {
      process.stdout.write(`${e.message}\n`);
      process.exit(0);
    }
    if (e instanceof FlagError) fatal(e.message, 2);
    throw e;
  }
}

