import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsOptional, IsString, MaxLength } from 'class-validator';

export class AddDomainRequest {
  @ApiProperty({ example: 'example.com' })
  @IsString()
  @MaxLength(1_000)
  domain: string;

  @ApiPropertyOptional({ type: [String], example: ['s2048'], description: 'DKIM selectors to watch besides the common ones (at most 20).' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @MaxLength(127, { each: true })
  dkimSelectors?: string[];
}
