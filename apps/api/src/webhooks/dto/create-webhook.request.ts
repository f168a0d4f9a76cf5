import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsIn, IsString, MaxLength } from 'class-validator';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '@mailproof/contracts';

export class CreateWebhookRequest {
  @ApiProperty({ example: 'https://hooks.example.com/mailproof', description: 'http(s) URL on a public address, port 80 or 443; deliveries are POSTed to it.' })
  @IsString()
  @MaxLength(2_000)
  url: string;

  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES, isArray: true, example: ['domain.drift', 'gate.failed'], description: 'The events to receive.' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length)
  @ArrayUnique()
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true })
  events: WebhookEventType[];
}
