/**
 * Why: "state machines are tables, not if-chains" (architecture rule 5). Each aggregate's `*.states.ts` calls
 * defineStateMachine once; services ask the table whether an event is legal and which statuses it may leave
 * from (the list for the conditional update), instead of scattering status checks.
 *
 * Guarantees: the table is checked when defined (unknown states in from/to/terminal, duplicates, empty
 * from-lists and transitions out of terminal states all throw InvalidStateMachineError), and everything it
 * returns is frozen. Typing: `states` fixes the status union; a typo in from/to/terminal is a compile error.
 * Queries taking a current status accept any string, because statuses arrive from rows and messages as text;
 * an unknown status is simply not allowed. An unknown event is a bug in the caller and throws.
 */
import { InvalidStateMachineError, TransitionRefusedError } from './errors';

export interface TransitionSpec<S extends string> {
  readonly from: readonly S[];
  readonly to: S;
  /** Verb for refusal messages; default is the event in lower case with spaces ("MARK_PAID" → "mark paid"). */
  readonly verb?: string;
}

export interface StateMachineDefinition<S extends string, E extends string> {
  /** The aggregate's name as it appears in errors ("PaymentIntent"). */
  readonly name: string;
  readonly states: readonly S[];
  readonly transitions: { readonly [K in E]: TransitionSpec<NoInfer<S>> };
  /** Statuses with no way out; validated to have no outgoing transitions. */
  readonly terminal?: readonly NoInfer<S>[];
}

export interface StateMachine<S extends string, E extends string> {
  readonly name: string;
  readonly states: readonly S[];
  readonly events: readonly E[];
  readonly terminal: readonly S[];
  isState(value: unknown): value is S;
  isTerminal(status: string): boolean;
  canTransition(from: string, event: E): boolean;
  targetOf(event: E): S;
  /** The statuses `event` may leave from: the `status = ANY($2)` list of the conditional update. */
  allowedFrom(event: E): readonly S[];
  /** Events legal from `status`, in definition order. */
  eventsFrom(status: string): readonly E[];
  verbOf(event: E): string;
  /** Returns the target status, or throws TransitionRefusedError naming the current status. */
  assertTransition(from: string, event: E, aggregateId?: string): S;
}

export function defineStateMachine<const S extends string, const E extends string>(
  definition: StateMachineDefinition<S, E>,
): StateMachine<S, E> {
  const { name } = definition;
  const fail = (problem: string): never => {
    throw new InvalidStateMachineError(`state machine ${JSON.stringify(name)}: ${problem}`);
  };

  if (typeof name !== 'string' || name.trim() === '') fail('name must be a non-empty string');
  const states = validateStates(definition.states, fail);
  const known = new Set<string>(states);
  const checkState = (value: unknown, where: string): void => {
    if (typeof value !== 'string' || !known.has(value))
      fail(`${where} names unknown state ${JSON.stringify(value)}`);
  };

  const terminal = Object.freeze([...(definition.terminal ?? [])]);
  terminal.forEach((status) => checkState(status, 'terminal'));
  if (new Set(terminal).size !== terminal.length) fail('terminal lists a state twice');

  if (typeof definition.transitions !== 'object' || definition.transitions === null)
    fail('transitions missing');
  const events = Object.freeze(Object.keys(definition.transitions) as E[]);
  if (events.length === 0) fail('has no transitions');

  const table = new Map<string, { from: readonly S[]; to: S; verb: string }>();
  for (const event of events) {
    const spec: TransitionSpec<S> = definition.transitions[event];
    if (event.trim() === '') fail('an event name is empty');
    if (!Array.isArray(spec.from) || spec.from.length === 0)
      fail(`${event}.from must list at least one state`);
    spec.from.forEach((status) => checkState(status, `${event}.from`));
    if (new Set(spec.from).size !== spec.from.length) fail(`${event}.from lists a state twice`);
    checkState(spec.to, `${event}.to`);
    const leavesTerminal = spec.from.find((status) => terminal.includes(status));
    if (leavesTerminal !== undefined) fail(`${event} leaves terminal state ${leavesTerminal}`);
    if (spec.verb !== undefined && (typeof spec.verb !== 'string' || spec.verb.trim() === '')) {
      fail(`${event}.verb must be a non-empty string`);
    }
    table.set(event, {
      from: Object.freeze([...spec.from]),
      to: spec.to,
      verb: spec.verb ?? event.toLowerCase().replace(/_/g, ' '),
    });
  }

  const lookup = (event: E): { from: readonly S[]; to: S; verb: string } => {
    const found = typeof event === 'string' ? table.get(event) : undefined;
    if (found === undefined) throw new TypeError(`${name} has no event ${JSON.stringify(event)}`);
    return found;
  };
  const canTransition = (from: string, event: E): boolean =>
    (lookup(event).from as readonly string[]).includes(from);

  return Object.freeze({
    name,
    states,
    events,
    terminal,
    isState: (value: unknown): value is S => typeof value === 'string' && known.has(value),
    isTerminal: (status: string) => (terminal as readonly string[]).includes(status),
    canTransition,
    targetOf: (event: E) => lookup(event).to,
    allowedFrom: (event: E) => lookup(event).from,
    eventsFrom: (status: string) =>
      Object.freeze(events.filter((event) => (lookup(event).from as readonly string[]).includes(status))),
    verbOf: (event: E) => lookup(event).verb,
    assertTransition(from: string, event: E, aggregateId?: string): S {
      const transition = lookup(event);
      if (!canTransition(from, event)) {
        throw new TransitionRefusedError({
          aggregate: name,
          event,
          verb: transition.verb,
          currentStatus: from,
          allowedFrom: transition.from,
          aggregateId,
        });
      }
      return transition.to;
    },
  });
}

function validateStates<S extends string>(
  states: readonly S[],
  fail: (problem: string) => never,
): readonly S[] {
  if (!Array.isArray(states) || states.length === 0) fail('states must list at least one state');
  for (const status of states) {
    if (typeof status !== 'string' || status.trim() === '')
      fail(`state ${JSON.stringify(status)} is not a name`);
  }
  if (new Set(states).size !== states.length) fail('states lists a state twice');
  return Object.freeze([...states]);
}
