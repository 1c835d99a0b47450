/**
 * `work`'s outcome, or a rejection with `expiredMessage` once `ms` passed without one; the late outcome of
 * `work` is then ignored. One helper for every wait on something that may never answer: a health check, a
 * reconciler pass, a test's probe or cleanup.
 */
export function withDeadline<T>(work: Promise<T>, ms: number, expiredMessage: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(expiredMessage)), ms);
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}
