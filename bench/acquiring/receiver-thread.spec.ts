import { readdirSync, readFileSync } from 'node:fs';
import { NICE, statField, usableNice } from '@paygrid/local-stack';
import { receiverNice, setThisThreadNice } from './receiver-thread';

const callingThread = () => statField('/proc/thread-self/stat', NICE);
const otherThreads = () => {
  const self = readFileSync('/proc/thread-self/stat', 'utf8').split(' ')[0];
  return readdirSync('/proc/self/task')
    .filter((tid) => tid !== self)
    .map((tid) => statField(`/proc/self/task/${tid}/stat`, NICE));
};

describe('the receiver thread', () => {
  it('runs at nice -10 unless BENCH_RECEIVER_NICE says otherwise, and refuses what is not a nice value', () => {
    expect(receiverNice(undefined)).toBe(-10);
    expect(receiverNice('')).toBe(-10);
    expect(receiverNice(' 0 ')).toBe(0);
    expect(receiverNice('5')).toBe(5);
    for (const wrong of ['x', '-21', '20', '1.5', '-'])
      expect(() => receiverNice(wrong)).toThrow(/BENCH_RECEIVER_NICE must be an integer from -20 to 19/);
  });

  it('raises the calling thread alone where the weight may be raised, and reports the value it runs at', () => {
    const mayRaise = usableNice()?.mayRaise === true;
    const before = callingThread();
    const othersBefore = otherThreads();
    try {
      const applied = setThisThreadNice(-10);
      expect(applied).toBe(mayRaise ? -10 : before);
      expect(callingThread()).toBe(applied);
      // Linux keeps nice per thread: the bench's main thread (its sixteen clients) keeps its own.
      expect(otherThreads()).toEqual(othersBefore);
    } finally {
      // Lowering a weight needs no privilege: this worker of the test runner goes back to where it was.
      setThisThreadNice(before);
    }
    expect(callingThread()).toBe(before);
  });
});
