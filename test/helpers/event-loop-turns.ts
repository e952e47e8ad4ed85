// Counts the turns of the event loop (its check phase) until stopped: code that waits without
// blocking lets it turn; code that blocks, or runs on in microtasks alone, does not.
export function countTurns(): { readonly turns: number; stop(): void } {
  let turns = 0;
  let stopped = false;
  const tick = () => {
    turns++;
    if (!stopped) setImmediate(tick);
  };
  setImmediate(tick);
  return {
    get turns() {
      return turns;
    },
    stop: () => void (stopped = true),
  };
}
