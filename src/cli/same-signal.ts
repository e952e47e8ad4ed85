/**
 * A signal this soon after the first is the first one re-raised by a library, not a person's
 * second Ctrl-C or an operator's second SIGTERM: when-exit (under conf, loaded once a profile is
 * read or saved) re-raises the first signal it handles, within the next turn of the event loop.
 */
export const SAME_SIGNAL_MS = 250;
