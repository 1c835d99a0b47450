/**
 * Waits for every promise to settle, or for `ms`, whichever comes first; never rejects. For shutdown and boot
 * waits on a dependency that may not answer at all (a Redis or broker that is down).
 */
export async function settledOrAfter(ms: number, promises: Promise<unknown>[]): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const elapsed = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  await Promise.race([Promise.allSettled(promises), elapsed]);
  clearTimeout(timer);
}
