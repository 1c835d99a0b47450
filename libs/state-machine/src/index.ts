/**
 * @paygrid/state-machine: transition tables for aggregates, and the conditional update that enforces them in
 * the database (architecture rule 5).
 */
export { defineStateMachine } from './define-state-machine';
export type { StateMachine, StateMachineDefinition, TransitionSpec } from './define-state-machine';
export {
  applyTransition,
  conditionalUpdateSql,
  currentStatusSql,
  quoteIdentifier,
  rowsOf,
} from './conditional-update';
export type {
  AggregateId,
  ApplyTransitionInput,
  ConditionalUpdateInput,
  Row,
  SqlExecutor,
  SqlStatement,
} from './conditional-update';
export { AggregateNotFoundError, InvalidStateMachineError, TransitionRefusedError } from './errors';
