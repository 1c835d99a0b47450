import { readFileSync } from 'node:fs';

/** Fields of /proc/<pid>/task/<tid>/stat after the command name, from 0 (proc(5) fields 19 and 41). */
export const NICE = 16;
export const POLICY = 38;

/** The fields of a /proc stat text after the command name, which ends at the last ') ' (a name may hold one). */
export function statFieldsOf(text: string): string[] {
  return text.slice(text.lastIndexOf(') ') + 2).split(' ');
}

/** Field `field` (NICE, POLICY) of a /proc stat file of this machine, as a number. */
export function statField(statFile: string, field: number): number {
  return Number(statFieldsOf(readFileSync(statFile, 'utf8'))[field]);
}
