import { ApiProperty } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';

export class UpdateAccountRequest {
  @ApiProperty({ minimum: 0, maximum: 365, example: 30, description: 'Free accounts 0-30, Pro 0-365 (403 plan_required above the plan).' })
  @IsInt()
  @Min(0)
  @Max(365)
  retentionDays: number;
}
