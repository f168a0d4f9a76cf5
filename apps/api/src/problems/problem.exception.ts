import { HttpException } from '@nestjs/common';
import type { FieldError, ProblemCode } from '@mailproof/contracts';

/** An HTTP error with Mailproof's stable code; the global filter turns it into problem+json. */
export class ProblemException extends HttpException {
  constructor(
    status: number,
    readonly code: ProblemCode,
    detail: string,
    readonly extensions: { errors?: FieldError[]; headers?: Record<string, string>; [key: string]: unknown } = {},
  ) {
    super(detail, status);
  }
}
