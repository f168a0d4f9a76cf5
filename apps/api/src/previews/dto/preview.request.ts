import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsBoolean, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { RENDER_MODES, type RenderMode } from '@mailproof/contracts';
import type { ClientId } from '@mailproof/engine';
import { OptionalClientIds } from '../../common/client-ids.validator';
import { EmailSourceRequest } from '../../common/email-source.request';

export class PreviewRequest extends EmailSourceRequest {
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
