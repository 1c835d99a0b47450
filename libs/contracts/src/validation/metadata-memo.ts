import { getMetadataStorage, MetadataStorage } from 'class-validator';

/**
 * class-validator 0.14 looks up a class's rules afresh for every object it validates:
 * `getTargetValidationMetadatas` filters the class's own rules and then walks every class that was ever
 * registered (an `instanceof` test each) for inherited ones. The rules only change when a class is
 * declared, so the answer for a class is the same from the first request to the last; on the create path
 * the lookup was ~3 % of the gateway's CPU (the body, its nested card and address, and Nest's own
 * look for binary values each ask) and ~1 % of each service's (docs/performance.md §21).
 *
 * This keeps each answer per class and per lookup options, and forgets them all whenever a rule, a
 * constraint or a schema is registered, so a class declared later (a lazily loaded module, a test's own
 * DTO) is seen as before. Answers are frozen: class-validator and Nest only read them, and a caller that
 * tried to change a shared answer would fail loudly instead of changing the next request's rules.
 */
type Lookup = MetadataStorage['getTargetValidationMetadatas'];
type Answer = ReturnType<Lookup>;

const MEMOIZED = Symbol('paygrid.validation.metadataMemo');

type Memoizable = MetadataStorage & { [MEMOIZED]?: true };

/** Installs the memo on class-validator's process-wide storage (or `storage`); a second call does nothing. */
export function memoizeValidationMetadata(storage: MetadataStorage = getMetadataStorage()): void {
  const target = storage as Memoizable;
  if (target[MEMOIZED]) return;
  target[MEMOIZED] = true;

  const answers = new Map<unknown, Map<string, Answer>>();

  const lookup: Lookup = storage.getTargetValidationMetadatas.bind(storage);
  storage.getTargetValidationMetadatas = (targetConstructor, targetSchema, always, strictGroups, groups) => {
    let ofClass = answers.get(targetConstructor);
    if (!ofClass) {
      ofClass = new Map();
      answers.set(targetConstructor, ofClass);
    }
    // Groups are names; a NUL cannot be part of one written in code, so the key cannot collide.
    const key = `${targetSchema}\u0000${always}\u0000${strictGroups}\u0000${groups?.join('\u0000') ?? ''}`;
    let answer = ofClass.get(key);
    if (!answer) {
      answer = Object.freeze(lookup(targetConstructor, targetSchema, always, strictGroups, groups)) as Answer;
      ofClass.set(key, answer);
    }
    return answer;
  };

  for (const register of ['addValidationMetadata', 'addConstraintMetadata', 'addValidationSchema'] as const) {
    const original = (storage[register] as (argument: never) => void).bind(storage);
    (storage[register] as (argument: never) => void) = (argument: never) => {
      answers.clear();
      original(argument);
    };
  }
}
