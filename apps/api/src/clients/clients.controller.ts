import { Controller, Get, NotFoundException, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { clientSummaries, describeClientModel, isClientId, listTrackedProperties } from '@mailproof/engine';

class ClientSummary {
  @ApiProperty({ example: 'gmail-web' }) id: string;
  @ApiProperty({ example: 'Gmail' }) name: string;
  @ApiProperty({ enum: ['webmail', 'desktop', 'mobile'] }) category: string;
  @ApiProperty({
    enum: ['WebKit', 'Blink', 'Word', 'Gecko'],
    description: "The engine that paints the email (a webmail paints in the reader's browser: Blink).",
  })
  engine: string;
  @ApiProperty({ example: 'Gmail web sanitizer', description: "What stands in front of the engine: a webmail's sanitizer, an app's web view." })
  renderer: string;
  @ApiProperty({ example: 'none' }) darkMode: string;
  @ApiProperty({
    example: 'none',
    description:
      'The dark model shown (same as darkMode): none, partial-inversion, full-inversion, prefers-color-scheme, partial-inversion-unless-dark-query, color-removal (the Thunderbird dark reader).',
  })
  darkModel: string;
  @ApiProperty({ example: '2026-11-27', description: 'When the client model was last checked against its sources.' }) modelCheckedAt: string;
  @ApiProperty({ example: 14, description: 'How many documented behaviors the model holds (GET /api/clients/{id}/model lists them).' }) behaviors: number;
}

/** Public reference data: the 21 clients and the tracked CSS properties with per-client support. */
@ApiTags('clients')
@Controller('api/clients')
export class ClientsController {
  private readonly clients = clientSummaries();
  private trackedProperties?: ReturnType<typeof listTrackedProperties>;

  @Get()
  @ApiOperation({ summary: 'The 21 email clients.' })
  @ApiOkResponse({ type: [ClientSummary] })
  list() {
    return this.clients;
  }

  @Get(':id/model')
  @ApiOperation({ summary: "A client's model: each documented behavior with what it does, its kind and its sources." })
  model(@Param('id') id: string) {
    if (!isClientId(id)) throw new NotFoundException(`Unknown client id ${id}.`);
    return describeClientModel(id);
  }

  @Get('properties')
  @ApiOperation({ summary: 'Every tracked CSS property with its support in each client (from caniemail).' })
  properties() {
    // Computed on first use: about 800 properties x 21 clients.
    this.trackedProperties ??= listTrackedProperties();
    return this.trackedProperties;
  }
}
