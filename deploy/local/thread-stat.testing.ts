import { readFileSync } from 'node:fs';

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
    "const s=fs.readFileSync('/proc/self/task/'+t+'/stat','utf8');const f=s.slice(s.lastIndexOf(') ')+2).split(' ');" +
    `return ${JSON.stringify(fields)}.map((i)=>f[i]).join('/')}).join(','))`
  );
}

/**
 * The same reading in this process: field `field` (NICE, POLICY) of a /proc stat file, counted after the
 * command name, which ends at the last ') ' (a thread's name may hold one of its own).
 */
export function statField(statFile: string, field: number): number {
  const text = readFileSync(statFile, 'utf8');
  return Number(text.slice(text.lastIndexOf(') ') + 2).split(' ')[field]);
}
