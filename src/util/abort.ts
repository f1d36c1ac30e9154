/**
 * `work`'s result, or `stopped()` as soon as `signal` fires, whichever comes first. The work
 * itself is not cancelled, only no longer waited for: use it for work whose result may be
 * dropped (a read, a search index update), never for a write that must finish.
 */
export function unlessAborted<T>(work: Promise<T>, signal: AbortSignal | undefined, stopped: () => T): Promise<T> {
  if (signal === undefined) return work;
  // Whatever the abandoned work ends with later is of no interest, failures included.
  work.catch(() => undefined);
  if (signal.aborted) return Promise.resolve(stopped());
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => resolve(stopped());
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
