import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, registerDecorator, type ValidationArguments } from 'class-validator';
import { SOURCE_FILES_LIMITS, checkSourceFiles } from '@mailproof/contracts';

/** class-validator constraint names; a failure of the size one makes the request a 413 (validation-problem.factory.ts). */
export const SOURCE_FILES_CONSTRAINT = 'sourceFiles';
export const SOURCE_FILES_SIZE_CONSTRAINT = 'sourceFilesSize';

const DESCRIPTION =
  'Local files the email imports, keyed by their path relative to the email: JSX components and Tailwind config, ' +
  `MJML mj-include, Maizzle layouts and components. Imports resolve only inside this map. At most ${SOURCE_FILES_LIMITS.maxFiles} files; ` +
  `html and files together at most ${SOURCE_FILES_LIMITS.maxTotalBytes} bytes (UTF-8).`;

/**
 * The optional `files` field of every request that carries an email (`html` beside it counts against
 * the same total). Shape problems are a 400, size problems a 413, each naming the file.
 */
export function OptionalSourceFiles(description = DESCRIPTION) {
  return applyDecorators(
    ApiPropertyOptional({
      type: 'object',
      additionalProperties: { type: 'string' },
      description,
      example: { '../components/Button.tsx': 'export function Button() { … }', '../../tailwind.config.ts': 'export default { … }' },
    }),
    IsOptional(),
    sourceFilesRule(SOURCE_FILES_CONSTRAINT, 400),
    sourceFilesRule(SOURCE_FILES_SIZE_CONSTRAINT, 413),
  );
}

/** `mjmlValidation`: MJML's validation level; soft (MJML's default) makes its messages warnings, strict makes the first a 422. */
export function OptionalMjmlValidation() {
  return applyDecorators(
    ApiPropertyOptional({
      enum: ['soft', 'strict'],
      default: 'soft',
      description: 'MJML validation: soft reports problems as warning findings with their line; strict refuses the email (422) at the first.',
    }),
    IsOptional(),
    IsIn(['soft', 'strict']),
  );
}

function sourceFilesRule(name: string, status: 400 | 413): PropertyDecorator {
  const problems = (args: ValidationArguments) => {
    const html = (args.object as { html?: unknown }).html;
    return checkSourceFiles(args.value, typeof html === 'string' ? Buffer.byteLength(html, 'utf8') : 0).filter((problem) => problem.status === status);
  };
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name,
      target: target.constructor,
      propertyName: String(propertyName),
      options: {
        message: (args: ValidationArguments) =>
          problems(args)
            .map((problem) => problem.message)
            .join('; '),
      },
      validator: { validate: (_value: unknown, args: ValidationArguments) => problems(args).length === 0 },
    });
}
