import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMinSize, ArrayUnique, IsArray, IsBoolean, IsIn, IsNotEmpty, IsNumber, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import {
  GATE_CHECK_FAMILIES,
  GATE_DEFAULT_THRESHOLD,
  GATE_REF_PATTERN,
  GATE_VISUAL_DEFAULT_THRESHOLD,
  UPDATE_BASELINE_MODES,
  type GateCheckFamily,
  type UpdateBaselineMode,
} from '@mailproof/contracts';
import { EMAIL_FORMATS, type ClientId, type EmailFormat } from '@mailproof/engine';
import { OptionalClientIds } from '../../common/client-ids.validator';
import { MaxUtf8Bytes } from '../../common/max-utf8-bytes.validator';
import { OptionalMjmlValidation, OptionalSourceFiles } from '../../common/source-files.validator';
import { MAX_MARKUP_BYTES } from '../../common/email-source.request';

/** POST /api/gate: exactly one of html and url (checked by the service, which names both fields). */
export class GateRequest {
  @ApiPropertyOptional({
    description: 'The email (HTML, JSX, MJML, Maizzle, or a raw RFC 5322 message with format "eml"), at most 500 KB. Exactly one of html and url.',
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxUtf8Bytes(MAX_MARKUP_BYTES)
  html?: string;

  @OptionalSourceFiles()
  files?: Record<string, string>;

  @OptionalMjmlValidation()
  mjmlValidation?: 'soft' | 'strict';

  @ApiPropertyOptional({ description: 'A "view in browser" link to import the email from (http/https, public addresses, at most 500 KB).' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(2_048)
  url?: string;

  @ApiPropertyOptional({ enum: EMAIL_FORMATS, default: 'html' })
  @IsOptional()
  @IsIn(EMAIL_FORMATS)
  format?: EmailFormat;

  @ApiPropertyOptional({ description: 'Stable name of the email (1-200 letters, digits and ._/-:@); omit to skip regression checking.', maxLength: 200 })
  @IsOptional()
  @IsString()
  @Matches(GATE_REF_PATTERN, { message: 'ref must be 1-200 characters of letters, digits and . _ / - : @' })
  ref?: string;

  @ApiPropertyOptional({ minimum: 0, maximum: 100, default: GATE_DEFAULT_THRESHOLD, description: 'A client scoring below it fails the threshold check.' })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(100)
  threshold?: number;

  @ApiPropertyOptional({
    type: [String],
    enum: GATE_CHECK_FAMILIES,
    description:
      'Check families to run; compatibility, content, regression and message when omitted. `visual` is opt-in and needs `ref` (400 validation_failed naming ref without one): the email is painted and each client compared with the baseline.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayUnique()
  @IsIn(GATE_CHECK_FAMILIES, { each: true, message: `each value in checks must be one of: ${GATE_CHECK_FAMILIES.join(', ')}` })
  checks?: GateCheckFamily[];

  @ApiPropertyOptional({
    minimum: 0,
    maximum: 100,
    default: GATE_VISUAL_DEFAULT_THRESHOLD,
    description:
      "The visual check: points a client's divergence from the reference rendering may grow over the baseline's before it fails (only with `visual`).",
  })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(100)
  visualThreshold?: number;

  @OptionalClientIds('Clients to check; all 21 when omitted.')
  clients?: ClientId[];

  @ApiPropertyOptional({ default: true, description: 'Whether a client with errors fails the gate.' })
  @IsOptional()
  @IsBoolean()
  failOnError?: boolean;

  @ApiPropertyOptional({ enum: UPDATE_BASELINE_MODES, default: 'on-pass', description: 'When the stored baseline of ref moves to this version.' })
  @IsOptional()
  @IsIn(UPDATE_BASELINE_MODES)
  updateBaseline?: UpdateBaselineMode;

  @ApiPropertyOptional({ default: false, description: 'Fetch each link (HEAD, then GET if refused; at most 25; within 10 s) to check that it resolves.' })
  @IsOptional()
  @IsBoolean()
  resolveLinks?: boolean;

  @ApiPropertyOptional({
    default: false,
    description:
      'The mail is bulk (marketing to many): the message check holds a message (format "eml") to the Gmail/Yahoo bulk-sender requirements even without a List-Unsubscribe header.',
  })
  @IsOptional()
  @IsBoolean()
  bulk?: boolean;

  @ApiPropertyOptional({
    default: true,
    description:
      "false: the run's email (its preview's source and rendered markup) is not kept once the run's job chain is done; the verdict, scores and baseline stay (docs/privacy.md).",
  })
  @IsOptional()
  @IsBoolean()
  retain?: boolean;
}
