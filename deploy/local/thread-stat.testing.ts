import { NICE, POLICY } from './thread-stat';

export { NICE, POLICY };

/**
 * For the launcher's specs: a `node -e` script that prints, for every thread of its own process, the given
 * fields of /proc/self/task/<tid>/stat (NICE, POLICY: SCHED_OTHER 0, SCHED_BATCH 3) joined by '/', the
 * threads joined by ','. Every thread, because Linux keeps both per thread and node starts several
 * before its first line of JavaScript. The script reads the fields as statFieldsOf does (thread-stat.ts):
 * it runs in a child that cannot import it.
 */
export function threadStatScript(fields: readonly number[]): string {
  return (
    "const fs=require('fs');process.stdout.write(fs.readdirSync('/proc/self/task').map((t)=>{" +
    "const s=fs.readFileSync('/proc/self/task/'+t+'/stat','utf8');const f=s.slice(s.lastIndexOf(') ')+2).split(' ');" +
    `return ${JSON.stringify(fields)}.map((i)=>f[i]).join('/')}).join(','))`
  );
}
