import { ValidationError } from 'class-validator';
import { flattenValidationErrors, validationProblem } from './validation-problem.factory';

function fieldError(property: string, constraints: Record<string, string>, children: ValidationError[] = []): ValidationError {
  return Object.assign(new ValidationError(), { property, constraints, children });
}

describe('validation problems', () => {
  it('reports only the type failure of a field of the wrong type, not the length rules it cannot meet', () => {
    const flat = flattenValidationErrors([
      fieldError('domain', { maxLength: 'domain must be shorter than or equal to 1000 characters', isString: 'domain must be a string' }),
    ]);
    expect(flat).toEqual([{ field: 'domain', message: 'domain must be a string' }]);
  });

  it('keeps every rule a value of the right type breaks, and names nested fields by path', () => {
    const flat = flattenValidationErrors([
      fieldError('title', { maxLength: 'title must be shorter than or equal to 200 characters', matches: 'title must not contain control characters' }),
      fieldError('dkimSelectors', {}, [fieldError('0', { matches: 'selector must be a DNS label' })]),
    ]);
    expect(flat).toEqual([
      { field: 'title', message: 'title must be shorter than or equal to 200 characters' },
      { field: 'title', message: 'title must not contain control characters' },
      { field: 'dkimSelectors.0', message: 'selector must be a DNS label' },
    ]);
  });

  it('turns a byte-limit failure into 413 and everything else into 400', () => {
    expect(validationProblem([fieldError('html', { maxUtf8Bytes: 'html must be at most 512000 bytes' })]).getStatus()).toBe(413);
    expect(validationProblem([fieldError('format', { isIn: 'format must be one of html, jsx, mjml, maizzle' })]).getStatus()).toBe(400);
  });
});
