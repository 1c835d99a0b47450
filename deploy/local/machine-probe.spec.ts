import { MachineProbe } from './machine-probe';

describe('MachineProbe', () => {
  it('runs its probe on the first get only, and keeps its answer, null included', () => {
    const probe = new MachineProbe<string | null>();
    const asked: string[] = [];
    const answering = (answer: string | null) => () => {
      asked.push(String(answer));
      return answer;
    };
    expect(probe.get(answering(null))).toBeNull();
    expect(probe.get(answering('/usr/bin/chrt'))).toBeNull();
    expect(asked).toEqual(['null']);
  });
});
