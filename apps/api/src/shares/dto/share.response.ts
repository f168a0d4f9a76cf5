import { ApiProperty } from '@nestjs/swagger';

export class ShareResponse {
  @ApiProperty({ example: 'shr_8GfQ2mZx7Lr4Pw9Vb1Nc3Kd0' }) id: string;
  @ApiProperty({ example: 'https://mailproof.example.com/share/shr_8GfQ2mZx7Lr4Pw9Vb1Nc3Kd0' }) url: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'Free: 7 days after creation; Pro: null (never).' })
  expiresAt: string | null;
}
