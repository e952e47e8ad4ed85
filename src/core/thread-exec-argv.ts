/**
 * The flags a worker thread gets: the process's, but --input-type (`node --input-type=module -e …`),
 * which a worker file refuses.
 */
export const THREAD_EXEC_ARGV = process.execArgv.filter((a) => !a.startsWith('--input-type'));
