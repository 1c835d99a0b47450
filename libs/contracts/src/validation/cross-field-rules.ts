import { ValidateBy, ValidationArguments } from 'class-validator';

/**
 * Rules across fields that no one field's decorator can say ("individual_info: is not allowed when
 * entity_type is COMPANY"). Put on the field the rules hinge on, they run wherever the class is
 * validated (the gateway's pipe and the service's command pipeline alike), so they live in the DTO
 * like every other rule; `describeErrors` reports each problem in the rule's own words instead of
 * under that field's name.
 */
export const CROSS_FIELD_RULES = 'crossFieldRules';

/** Separates the problems of one rule set inside the single message class-validator keeps. */
const SEPARATOR = '\n';

export function CrossFieldRules<T extends object>(problemsOf: (object: T) => string[]): PropertyDecorator {
  return ValidateBy({
    name: CROSS_FIELD_RULES,
    validator: {
      validate: (_value: unknown, args?: ValidationArguments) => problemsOf(args?.object as T).length === 0,
      defaultMessage: (args?: ValidationArguments) => problemsOf(args?.object as T).join(SEPARATOR),
    },
  });
}

/** The problems a CrossFieldRules message holds. */
export function crossFieldProblemsOf(message: string): string[] {
  return message.split(SEPARATOR);
}
