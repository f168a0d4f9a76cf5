import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches } from 'class-validator';
import { GATE_REF_PATTERN } from '@mailproof/contracts';
import { ListPreviewsQuery } from '../../previews/dto/list-previews.query';

/** GET /api/gate/runs: page, pageSize and optionally one ref. */
export class GateRunsQuery extends ListPreviewsQuery {
  @ApiPropertyOptional({ description: 'Only the runs of this ref.' })
  @IsOptional()
  @IsString()
  @Matches(GATE_REF_PATTERN, { message: 'ref must be 1-200 characters of letters, digits and . _ / - : @' })
  ref?: string;
}
