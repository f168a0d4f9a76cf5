import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsIn, IsNotEmpty, IsOptional, IsString } from 'class-validator';
import { EMAIL_FORMATS, FIX_TIERS, type ClientId, type EmailFormat, type FixTier } from '@mailproof/engine';
import { OptionalClientIds } from '../../common/client-ids.validator';
import { MaxUtf8Bytes } from '../../common/max-utf8-bytes.validator';
import { OptionalMjmlValidation, OptionalSourceFiles } from '../../common/source-files.validator';
import { MAX_MARKUP_BYTES } from '../../previews/dto/preview.request';

/** `POST /api/fix`: the email as POST /api/preview takes it (same limits and validators), and the fix tiers. */
export class FixRequest {
  @ApiProperty({ description: 'Email markup: HTML, React Email JSX, MJML or Maizzle; at most 500 KB (UTF-8 bytes).' })
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
    description: 'Input format. For jsx and maizzle the patched email is the compiled HTML (the answer says so); html is patched in place.',
  })
  @IsOptional()
  @IsIn(EMAIL_FORMATS)
  format?: EmailFormat;

  @OptionalClientIds('Clients whose findings the fixes resolve and must not add to; all 21 when omitted.')
  clients?: ClientId[];

  @ApiPropertyOptional({
    type: [String],
    enum: FIX_TIERS,
    default: ['safe'],
    description:
      'safe: invisible fixes (default). ["safe", "layout"] opts in to visible ones (CSS inlining, bulletproof buttons, VML backgrounds, unused CSS).',
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(FIX_TIERS.length)
  @ArrayUnique()
  @IsIn(FIX_TIERS, { each: true, message: `each value in tiers must be one of the fix tiers: ${FIX_TIERS.join(', ')}` })
  tiers?: FixTier[];
}
