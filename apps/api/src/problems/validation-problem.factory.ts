import type { ValidationError } from 'class-validator';
import type { FieldError } from '@mailproof/contracts';
import { ProblemException } from './problem.exception';

/** Flattens class-validator errors into `errors: [{ field, message }]` with dotted field paths. */
export function flattenValidationErrors(errors: ValidationError[], parent = ''): FieldError[] {
  const flat: FieldError[] = [];
  for (const error of errors) {
    const field = parent ? `${parent}.${error.property}` : error.property;
    for (const message of Object.values(error.constraints ?? {})) flat.push({ field, message });
    if (error.children?.length) flat.push(...flattenValidationErrors(error.children, field));
  }
  return flat;
}

export function validationProblem(errors: ValidationError[]): ProblemException {
  const flat = flattenValidationErrors(errors);
  const tooLarge = errors.some((e) => e.constraints && 'maxUtf8Bytes' in e.constraints);
  if (tooLarge) {
    return new ProblemException(413, 'payload_too_large', flat.map((e) => `${e.field}: ${e.message}`).join('; '), { errors: flat });
  }
  return new ProblemException(400, 'validation_failed', 'The request is invalid; see errors.', { errors: flat });
}
