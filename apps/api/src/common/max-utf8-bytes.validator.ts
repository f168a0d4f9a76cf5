import { registerDecorator, type ValidationOptions } from 'class-validator';

/**
 * The string's UTF-8 encoding is at most `limit` bytes. A failure of this constraint makes the
 * request a 413 payload_too_large rather than a 400 (see validation-problem.factory.ts).
 */
export function MaxUtf8Bytes(limit: number, options: ValidationOptions = {}) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'maxUtf8Bytes',
      target: target.constructor,
      propertyName,
      constraints: [limit],
      options: { message: `$property must be at most ${limit} bytes as UTF-8`, ...options },
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || Buffer.byteLength(value, 'utf8') <= limit,
      },
    });
}
