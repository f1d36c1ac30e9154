/**
 * Runs tasks one at a time, in the order they were handed in: for state that several
 * concurrent runs in one process change (pages, index.md, log.md, the manifest).
 */
export class Mutex {
  private chain: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const next = this.chain.then(task);
    // A failed task is its caller's error; the next task still runs.
    this.chain = next.catch(() => undefined);
    return next;
  }
}
