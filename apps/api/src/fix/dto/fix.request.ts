import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsIn, IsOptional } from 'class-validator';
import { FIX_TIERS, type FixTier } from '@mailproof/engine';
import { EmailSourceRequest } from '../../common/email-source.request';

/** `POST /api/fix`: the email as POST /api/preview takes it (same limits and validators), and the fix tiers. */
export class FixRequest extends EmailSourceRequest {
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
