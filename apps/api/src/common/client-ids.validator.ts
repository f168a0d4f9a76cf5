import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsIn, IsOptional } from 'class-validator';
import { CLIENT_IDS } from '@mailproof/engine';

/**
 * An optional list of client ids (all 21 when omitted): at least one, no repeats, each a known id; an
 * unknown id is a 400 whose message lists the valid ones. Shared by every request that picks clients.
 */
export function OptionalClientIds(description: string) {
  return applyDecorators(
    ApiPropertyOptional({ type: [String], enum: CLIENT_IDS, description }),
    IsOptional(),
    IsArray(),
    ArrayMinSize(1),
    ArrayMaxSize(CLIENT_IDS.length),
    ArrayUnique(),
    IsIn(CLIENT_IDS, { each: true, message: `each value in clients must be one of the client ids: ${CLIENT_IDS.join(', ')}` }),
  );
}
