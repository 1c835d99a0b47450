import { CommandFamily, CommandTopics } from './topics';

/**
 * One declaration per command, shared by the sender (the gateway, the CLI) and the owning service:
 * its type on the bus, its family (which service and topic), the class-validator class its payload
 * must satisfy, whether it mutates, and its result type. The gateway's calls and the service's
 * handler are both type-checked against it, and the service validates every payload against the same
 * class before its handler runs, so a rule lives in exactly one place.
 *
 *   export const createIntent = defineCommand('acquiring.payment_intents.create', {
 *     payload: CreateIntentPayload,
 *     result: returns<PaymentIntentView>(),
 *     mutates: true,
 *   });
 */
export type PayloadClass<P extends object> = new () => P;

/** A phantom marker that carries a result type in a value (nothing is stored at run time). */
export interface ResultMarker<R> {
  readonly __result?: R;
}
export const returns = <R>(): ResultMarker<R> => ({});

export interface CommandDefinition<P extends object = object, R = unknown, M extends boolean = boolean, T extends string = string> {
  /** Kept as its literal type, so tools (the AsyncAPI catalogue) can check they list every command. */
  readonly type: T;
  readonly family: CommandFamily;
  readonly payload: PayloadClass<P>;
  /**
   * A mutating command is applied at most once per command_id (the service's command ledger) and its
   * reply stored; a query runs as often as it is asked.
   */
  readonly mutates: M;
  /** Whether a merchant actor must come with it (false: operator CLI or hosted pages, no actor). */
  readonly needsActor: boolean;
  readonly result: ResultMarker<R>;
}

export type PayloadOf<C> = C extends CommandDefinition<infer P, unknown, boolean, string> ? P : never;
export type ResultOf<C> = C extends CommandDefinition<object, infer R, boolean, string> ? R : never;

/** The payload class of commands that carry nothing. */
export class NoPayload {}

export function defineCommand<P extends object, R, M extends boolean, T extends string>(
  type: T,
  options: { payload: PayloadClass<P>; result: ResultMarker<R>; mutates: M; needsActor?: boolean },
): CommandDefinition<P, R, M, T> {
  const family = type.slice(0, type.indexOf('.')) as CommandFamily;
  if (!(family in CommandTopics)) throw new Error(`command ${type} names no known family`);
  return Object.freeze({
    type,
    family,
    payload: options.payload,
    mutates: options.mutates,
    needsActor: options.needsActor ?? true,
    result: options.result,
  });
}
