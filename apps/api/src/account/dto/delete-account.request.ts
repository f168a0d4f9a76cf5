import { ApiPropertyOptional } from '@nestjs/swagger';
import { Equals, IsOptional } from 'class-validator';

/** The confirmation may come in the body instead of the Mailproof-Confirm header. */
export class DeleteAccountRequest {
  @ApiPropertyOptional({ enum: ['delete'], description: 'Or send the header Mailproof-Confirm: delete.' })
  @IsOptional()
  @Equals('delete')
  confirm?: 'delete';
}
