/** Fields of /proc/<pid>/task/<tid>/stat after the command name, from 0 (proc(5) fields 19 and 41). */
export const NICE = 16;
export const POLICY = 38;

/**
 * For the launcher's specs: a `node -e` script that prints, for every thread of its own process, the given
 * fields of /proc/self/task/<tid>/stat (NICE, POLICY: SCHED_OTHER 0, SCHED_BATCH 3) joined by '/', the
 * threads joined by ','. Every thread, because Linux keeps both per thread and node starts several
 * before its first line of JavaScript.
 */
export function threadStatScript(fields: readonly number[]): string {
  return (
    "const fs=require('fs');process.stdout.write(fs.readdirSync('/proc/self/task').map((t)=>{" +
    "const f=fs.readFileSync('/proc/self/task/'+t+'/stat','utf8').split(') ')[1].split(' ');" +
    `return ${JSON.stringify(fields)}.map((i)=>f[i]).join('/')}).join(','))`
  );
}
