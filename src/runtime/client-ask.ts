/**
 * One server request to the client on behalf of a turn (an approval, the model's questions): the
 * client's answer, read as the request expects it, or what the turn's end means for it when the turn
 * stops first. Nothing is sent for a turn already stopped.
 */
export function askClient<T>(
  send: () => Promise<unknown>,
  signal: AbortSignal,
  read: (result: unknown) => T,
  whenStopped: () => T,
): Promise<T> {
  if (signal.aborted) return Promise.resolve().then(whenStopped);
  return new Promise<T>((resolve, reject) => {
    const settle = (value: () => T): void => {
      try {
        resolve(value());
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    };
    const onAbort = (): void => settle(whenStopped);
    signal.addEventListener('abort', onAbort, { once: true });
    send().then(
      (result) => {
        signal.removeEventListener('abort', onAbort);
        settle(() => read(result));
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
