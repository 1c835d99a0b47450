/**
 * What the launcher asks the machine once per process (is there a `chrt`, may it set SCHED_BATCH; is there a
 * `nice`, may it raise a weight): each answer costs a child process, and it cannot change while the launcher
 * runs. The first `get` runs its probe and keeps the answer.
 */
export class MachineProbe<T> {
  private answer: { value: T } | undefined;

  get(probe: () => T): T {
    if (this.answer === undefined) this.answer = { value: probe() };
    return this.answer.value;
  }
}
