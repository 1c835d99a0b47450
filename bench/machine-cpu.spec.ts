import { machineCpuBetween, MachineCpu, parseProcStat, sampleMachineCpu } from './machine-cpu';

const procStat = (cpu: string, ctxt: number) =>
  `${cpu}\ncpu0 1 2 3 4 5 6 7 8 0 0\nintr 12345 0 0\nctxt ${ctxt}\nbtime 1764680000\nprocesses 900\n`;

describe('parseProcStat', () => {
  it('folds nice into user, interrupts into system and the disk wait into idle', () => {
    expect(parseProcStat(procStat('cpu  100 20 300 4000 50 6 7 8 0 0', 98765))).toEqual({
      user: 120,
      system: 313,
      idle: 4050,
      steal: 8,
      switches: 98765,
    });
  });

  it('reads a kernel that reports only the first four columns', () => {
    expect(parseProcStat(procStat('cpu  10 0 20 70', 5))).toEqual({
      user: 10,
      system: 20,
      idle: 70,
      steal: 0,
      switches: 5,
    });
  });

  it('refuses a text without the aggregate cpu line', () => {
    expect(() => parseProcStat('cpu0 1 2 3 4\nctxt 5\n')).toThrow(/cpu or ctxt/);
  });

  it("reads this machine's counters", () => {
    const sample = sampleMachineCpu();
    expect(sample.user + sample.system + sample.idle).toBeGreaterThan(0);
    expect(sample.switches).toBeGreaterThan(0);
  });
});

describe('machineCpuBetween', () => {
  const at = (user: number, system: number, idle: number, steal: number, switches: number): MachineCpu => ({
    user,
    system,
    idle,
    steal,
    switches,
  });

  it("gives the window's shares of the machine and its context switches per operation", () => {
    const figures = machineCpuBetween(
      at(1000, 500, 9000, 0, 10_000),
      at(1700, 1900, 9900, 0, 590_000),
      40_000,
    );
    expect(figures).toEqual({
      machine_user_percent: 23.3,
      machine_system_percent: 46.7,
      machine_idle_percent: 30,
      machine_steal_percent: 0,
      machine_kernel_share_of_busy_percent: 66.7,
      machine_context_switches_per_op: 14.5,
    });
  });

  it("compares two windows' kernel work by its share of the busy time, whatever their idle time", () => {
    const start = at(0, 0, 0, 0, 0);
    const quiet = machineCpuBetween(start, at(300, 100, 600, 0, 1), 1);
    const saturated = machineCpuBetween(start, at(750, 250, 0, 0, 1), 1);
    expect(quiet.machine_system_percent).toBe(10);
    expect(saturated.machine_system_percent).toBe(25);
    expect(quiet.machine_kernel_share_of_busy_percent).toBe(25);
    expect(saturated.machine_kernel_share_of_busy_percent).toBe(25);
  });

  it('says nothing of a window without busy ticks or without operations', () => {
    const same = at(1, 2, 3, 0, 4);
    expect(machineCpuBetween(same, same, 10)).toEqual({});
    expect(machineCpuBetween(same, at(1, 2, 9, 0, 5), 10)).toEqual({});
    expect(machineCpuBetween(same, at(2, 3, 4, 0, 5), 0)).toEqual({});
  });
});
