// The signals that stop `bolag serve`, one process or a cluster alike.

/**
 * A signal this soon after the first is the first one re-raised by a library (handled within the
 * next turn of the event loop), not an operator's second.
 */
export const SAME_SIGNAL_MS = 250;

/** What stops a server gracefully besides Ctrl-C: SIGHUP too (the terminal or SSH session closed). */
export const STOP_SIGNALS = ['SIGTERM', 'SIGHUP'] as const;
