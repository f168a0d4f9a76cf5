import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { QUEUE_NAMES, type QueueName } from '@mailproof/contracts';

export class RoundTripRequest {
  @ApiPropertyOptional({ enum: QUEUE_NAMES, default: 'preview', description: 'Queue whose worker should answer.' })
  @IsOptional()
  @IsIn(QUEUE_NAMES)
  queue?: QueueName;

  @ApiPropertyOptional({ minimum: 1, maximum: 30000, description: 'How long to wait, in ms (default ROUND_TRIP_BUDGET_MS).' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(30_000)
  budgetMs?: number;
}
