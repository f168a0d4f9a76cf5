import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsNotEmpty, IsOptional, IsString } from 'class-validator';
import { EMAIL_FORMATS, type ClientId, type EmailFormat } from '@mailproof/engine';
import { OptionalClientIds } from './client-ids.validator';
import { MaxUtf8Bytes } from './max-utf8-bytes.validator';
import { OptionalMjmlValidation, OptionalSourceFiles } from './source-files.validator';

/** 500 KB of markup, counted as UTF-8 bytes. */
export const MAX_MARKUP_BYTES = 512_000;

/**
 * The email as `POST /api/preview` and `POST /api/fix` take it: markup, the files it imports, MJML's
 * validation level, the format and the clients. One class, so both endpoints keep the same limits.
 */
export class EmailSourceRequest {
  @ApiProperty({
    description: 'Email markup: HTML, React Email JSX, MJML or Maizzle, or a whole RFC 5322 message with format eml; at most 500 KB (UTF-8 bytes).',
  })
  @IsString()
  @IsNotEmpty()
  @MaxUtf8Bytes(MAX_MARKUP_BYTES)
  html: string;

  @OptionalSourceFiles()
  files?: Record<string, string>;

  @OptionalMjmlValidation()
  mjmlValidation?: 'soft' | 'strict';

  @ApiPropertyOptional({
    enum: EMAIL_FORMATS,
    default: 'html',
    description:
      'Input format; selects framework-native fix snippets. eml: a whole message (docs/messages.md), whose HTML part is analyzed and whose result gains messageReport. ' +
      'For a fix of jsx or maizzle the patched email is the compiled HTML, of eml the decoded HTML part.',
  })
  @IsOptional()
  @IsIn(EMAIL_FORMATS)
  format?: EmailFormat;

  @OptionalClientIds('Client ids to analyze (and, for a fix, whose findings the fixes resolve and must not add to); all 21 when omitted.')
  clients?: ClientId[];

  @ApiPropertyOptional({
    default: true,
    description:
      "false: the email (source, files, rendered markup, screenshots) is not kept once this request's job chain is done; scores and findings stay (docs/privacy.md).",
  })
  @IsOptional()
  @IsBoolean()
  retain?: boolean;
}
