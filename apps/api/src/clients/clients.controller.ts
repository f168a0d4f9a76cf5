import { Controller, Get, NotFoundException, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { clientSummaries, describeClientModel, isClientId, listTrackedProperties } from '@mailproof/engine';

class InventorySourcesReadAt {
  @ApiProperty({ example: '2026-12-07', description: "When caniemail's notes were last read (the installed caniemail package)." }) caniemail: string;
  @ApiProperty({ example: '2026-12-07', description: 'When the hteumeuleu/email-bugs issues were last read.' }) emailBugs: string;
  @ApiProperty({ example: '2026-12-07', description: "When the vendors' pages and the open-source clients' code were last read." }) vendor: string;
}

class ClientInventory {
  @ApiProperty({ example: 40, description: "Documented behaviours a model behaviour (or caniemail's support layer) expresses, each with a fixture." })
  modeled: number;
  @ApiProperty({
    example: 18,
    description: 'Documented behaviours not modeled, each with its reason (user setting, not in markup, disputed, superseded, gap) and date.',
  })
  notModeled: number;
  @ApiProperty({ example: 8, description: "Documented facts that describe no client behaviour (the reader's browser, a workaround)." })
  notApplicable: number;
  @ApiProperty({ type: InventorySourcesReadAt }) sourcesReadAt: InventorySourcesReadAt;
}

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
  @ApiProperty({
    type: ClientInventory,
    description:
      "The behaviour inventory of the client: every documented behaviour from caniemail's notes, email-bugs and vendor sources, counted by decision (docs/inventory/).",
  })
  inventory: ClientInventory;
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
