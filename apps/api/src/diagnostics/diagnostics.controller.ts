import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { RoundTripRequest } from './dto/round-trip.request';
import { RoundTripResponse } from './dto/round-trip.response';
import { RoundTripService } from './round-trip.service';

@ApiTags('diagnostics')
@Controller('api/diagnostics')
export class DiagnosticsController {
  constructor(private readonly roundTrip: RoundTripService) {}

  @Post('round-trip')
  @HttpCode(200)
  @ApiOperation({ summary: 'Proves the pipeline: enqueue a probe job, a worker stores it in PostgreSQL, the API reads it back.' })
  @ApiOkResponse({ type: RoundTripResponse })
  @ApiServiceUnavailableResponse({ description: 'No worker answered within the budget (problem+json with jobId).' })
  run(@Body() body: RoundTripRequest): Promise<RoundTripResponse> {
    return this.roundTrip.run(body.queue ?? 'preview', body.budgetMs);
  }
}
