import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsBoolean, IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { RENDER_MODES, type RenderMode } from '@mailproof/contracts';
import { EMAIL_FORMATS, type ClientId, type EmailFormat } from '@mailproof/engine';
import { OptionalClientIds } from '../../common/client-ids.validator';
import { MaxUtf8Bytes } from '../../common/max-utf8-bytes.validator';
import { OptionalMjmlValidation, OptionalSourceFiles } from '../../common/source-files.validator';

/** 500 KB of markup, counted as UTF-8 bytes. */
export const MAX_MARKUP_BYTES = 512_000;

export class PreviewRequest {
  @ApiProperty({ description: 'Email markup: HTML, React Email JSX, MJML or Maizzle; at most 500 KB (UTF-8 bytes).' })
  @IsString()
  @IsNotEmpty()
  @MaxUtf8Bytes(MAX_MARKUP_BYTES)
  html: string;

  @OptionalSourceFiles()
  files?: Record<string, string>;

  @OptionalMjmlValidation()
  mjmlValidation?: 'soft' | 'strict';

  @ApiPropertyOptional({ enum: EMAIL_FORMATS, default: 'html', description: 'Input format; selects framework-native fix snippets.' })
  @IsOptional()
  @IsIn(EMAIL_FORMATS)
  format?: EmailFormat;

  @OptionalClientIds('Client ids to analyze; all 21 when omitted.')
  clients?: ClientId[];

  @ApiPropertyOptional({ maxLength: 200, description: 'Title for the saved preview (authenticated requests).' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  title?: string;

  @ApiPropertyOptional({
    default: false,
    description:
      'Also render screenshots of every client, light and dark (waits up to PREVIEW_RENDER_WAIT_MS; absent when not done by then, stored when done).',
  })
  @IsOptional()
  @IsBoolean()
  screenshots?: boolean;
}

/** `POST /api/preview/:id/screenshots`: which screenshots of a stored preview to render. */
export class ScreenshotsRequest {
  @OptionalClientIds('Clients to render; every client of the preview when omitted. Each must be one the preview analyzed.')
  clients?: ClientId[];

  @ApiPropertyOptional({ type: [String], enum: RENDER_MODES, default: RENDER_MODES, description: 'light, dark or both.' })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(RENDER_MODES.length)
  @ArrayUnique()
  @IsIn(RENDER_MODES, { each: true, message: 'each value in modes must be light or dark' })
  modes?: RenderMode[];
}
