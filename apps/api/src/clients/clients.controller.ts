import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { EMAIL_CLIENTS, listTrackedProperties } from '@mailproof/engine';

class ClientSummary {
  @ApiProperty({ example: 'gmail-web' }) id: string;
  @ApiProperty({ example: 'Gmail' }) name: string;
  @ApiProperty({ enum: ['webmail', 'desktop', 'mobile'] }) category: string;
  @ApiProperty({ example: 'Gmail web (Blink, style sanitiser)' }) engine: string;
  @ApiProperty({ example: 'none' }) darkMode: string;
}

/** Public reference data: the 21 clients and the tracked CSS properties with per-client support. */
@ApiTags('clients')
@Controller('api/clients')
export class ClientsController {
  private readonly clients = EMAIL_CLIENTS.map(({ id, name, category, engine, darkMode }) => ({ id, name, category, engine, darkMode }));
  private trackedProperties?: ReturnType<typeof listTrackedProperties>;

  @Get()
  @ApiOperation({ summary: 'The 21 email clients.' })
  @ApiOkResponse({ type: [ClientSummary] })
  list() {
    return this.clients;
  }

  @Get('properties')
  @ApiOperation({ summary: 'Every tracked CSS property with its support in each client (from caniemail).' })
  properties() {
    // Computed on first use: about 800 properties x 21 clients.
    this.trackedProperties ??= listTrackedProperties();
    return this.trackedProperties;
  }
}
