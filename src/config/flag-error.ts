/** A flag that cannot be used; the message is one sentence naming it (exit code 2). */
export class FlagError extends Error {}

/** --help or --version: the message goes to stdout and the process exits 0. */
export class HelpRequested extends FlagError {}
