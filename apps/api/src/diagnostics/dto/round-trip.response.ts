import { ApiProperty } from '@nestjs/swagger';

export class RoundTripResponse {
  @ApiProperty() jobId: string;
  @ApiProperty() queue: string;
  @ApiProperty({ enum: ['completed'] }) status: 'completed';
  @ApiProperty({ description: 'Host and pid of the worker that processed the job.' }) workerId: string;
  @ApiProperty({ description: 'When the worker wrote its row to PostgreSQL.' }) processedAt: string;
  @ApiProperty({ description: 'Wall time from enqueue to the answer, in ms.' }) elapsedMs: number;
}
