import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';

export class CreateShareRequest {
  @ApiProperty({ description: 'The id from a preview response.' })
  @IsString()
  @MaxLength(100)
  previewId: string;
}
