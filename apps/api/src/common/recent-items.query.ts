import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** `?limit=`: how many of the most recent items a history or log returns (1-200, default 50). */
export class RecentItemsQuery {
  @ApiPropertyOptional({ minimum: 1, maximum: 200, default: 50, description: 'How many of the most recent items to return.' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(200)
  limit?: number;
}
