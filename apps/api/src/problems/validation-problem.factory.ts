import type { ValidationError } from 'class-validator';
import type { FieldError } from '@mailproof/contracts';
import { SOURCE_FILES_SIZE_CONSTRAINT } from '../common/source-files.validator';
import { ProblemException } from './problem.exception';

/** Flattens class-validator errors into `errors: [{ field, message }]` with dotted field paths. */
/** class-validator's type checks: when one fails, the length and range messages of the same field are noise. */
const TYPE_CONSTRAINTS: ReadonlySet<string> = new Set([
  'isDefined',
  'isString',
  'isArray',
  'isInt',
  'isNumber',
  'isBoolean',
  'isObject',
  'whitelistValidation',
]);

export function flattenValidationErrors(errors: ValidationError[], parent = ''): FieldError[] {
  const flat: FieldError[] = [];
  for (const error of errors) {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const constraints = error.constraints ?? {};
    // A value of the wrong type (or a missing one) fails every other rule too; say only what matters.
    const typeFailures = Object.keys(constraints).filter((name) => TYPE_CONSTRAINTS.has(name));
    for (const name of typeFailures.length > 0 ? typeFailures : Object.keys(constraints)) flat.push({ field, message: constraints[name] });
    if (error.children?.length) flat.push(...flattenValidationErrors(error.children, field));
  }
  return flat;
}

export function validationProblem(errors: ValidationError[]): ProblemException {
  const flat = flattenValidationErrors(errors);
  const tooLarge = errors.some((e) => e.constraints && ('maxUtf8Bytes' in e.constraints || SOURCE_FILES_SIZE_CONSTRAINT in e.constraints));
  if (tooLarge) {
    return new ProblemException('payload_too_large', flat.map((e) => `${e.field}: ${e.message}`).join('; '), { errors: flat });
  }
  return new ProblemException('validation_failed', 'The request is invalid; see errors.', { errors: flat });
}
