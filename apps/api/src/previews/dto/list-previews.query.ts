import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { PREVIEW_SORTS, type PreviewSort } from '@mailproof/persistence';

export class ListPreviewsQuery {
  @ApiPropertyOptional({ minimum: 1, default: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100_000)
  page?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 20 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  pageSize?: number;

  @ApiPropertyOptional({ description: 'Only previews whose title contains this text (case-insensitive).', maxLength: 200 })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  q?: string;

  @ApiPropertyOptional({
    enum: PREVIEW_SORTS,
    default: 'date-desc',
    description: 'By creation date or overall score; unscored previews sort last when descending.',
  })
  @IsOptional()
  @IsIn(PREVIEW_SORTS)
  sort?: PreviewSort;
}
