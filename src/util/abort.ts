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
  return raceSignal(work, signal, stopped);
}

/** `work`'s result, or an AbortError as soon as `signal` fires; like unlessAborted, the work is only no longer waited for. */
export function rejectOnAbort<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return work;
  if (signal.aborted) return Promise.reject(abortError(signal));
  return raceSignal(work, signal, () => Promise.reject(abortError(signal)));
}

/** The signal's reason when it is an AbortError, else a plain AbortError (what fetch and the SDKs throw). */
export function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  return new DOMException('The operation was aborted.', 'AbortError');
}

/** The one place an abort listener is added for a race: it is removed however the race ends. */
function raceSignal<T>(work: Promise<T>, signal: AbortSignal, onAbort: () => T | PromiseLike<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const listener = (): void => resolve(onAbort());
    signal.addEventListener('abort', listener, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', listener));
  });
}
