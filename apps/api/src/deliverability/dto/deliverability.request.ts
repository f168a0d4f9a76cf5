import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsOptional, IsString, MaxLength } from 'class-validator';

export class DeliverabilityRequest {
  @ApiProperty({ example: 'example.com', description: 'Domain to audit; a pasted URL or address is reduced to its domain, IDNs become Punycode.' })
  @IsString()
  @MaxLength(1_000)
  domain: string;

  @ApiPropertyOptional({ type: [String], example: ['s2048'], description: 'DKIM selectors to probe before the common ones (at most 20).' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @MaxLength(127, { each: true })
  dkimSelectors?: string[];
}
