import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { Authenticated } from '../auth/auth.decorators';
import { RoundTripRequest } from './dto/round-trip.request';
import { RoundTripResponse } from './dto/round-trip.response';
import { RoundTripService } from './round-trip.service';

@ApiTags('diagnostics')
@Controller('api/diagnostics')
export class DiagnosticsController {
  constructor(private readonly roundTrip: RoundTripService) {}

  /** Queues a real job, so it needs a key (any plan): anonymous callers must not fill the queues. */
  @Post('round-trip')
  @Authenticated()
  @HttpCode(200)
  @ApiOperation({ summary: 'Proves the pipeline: enqueue a probe job, a worker stores it in PostgreSQL, the API reads it back.' })
  @ApiOkResponse({ type: RoundTripResponse })
  @ApiUnauthorizedResponse({ description: 'No valid API key (any plan will do).' })
  @ApiServiceUnavailableResponse({ description: 'No worker answered within the budget (problem+json with jobId).' })
  run(@Body() body: RoundTripRequest): Promise<RoundTripResponse> {
    return this.roundTrip.run(body.queue ?? 'preview', body.budgetMs);
  }
}
