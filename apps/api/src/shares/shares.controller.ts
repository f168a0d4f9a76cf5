import { Body, Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Authenticated, CurrentAccount } from '../auth/auth.decorators';
import type { AuthenticatedAccount } from '../auth/request-identity';
import { sendJsonBody, storedPreviewJson } from '../http/stored-json-response';
import { ProblemException } from '../problems/problem.exception';
import { CreateShareRequest } from './dto/create-share.request';
import { ShareResponse } from './dto/share.response';
import { SharesService } from './shares.service';

@ApiTags('shares')
@Controller('api/share')
export class SharesController {
  constructor(private readonly shares: SharesService) {}

  @Post()
  @Authenticated()
  @ApiOperation({ summary: 'Create a public link to a saved (or anonymous) preview.' })
  @ApiResponse({ status: 410, description: "content_gone: the preview's content was removed (retention or retain: false; contentRemoved: true)" })
  @ApiCreatedResponse({ type: ShareResponse })
  create(@CurrentAccount() account: AuthenticatedAccount, @Body() body: CreateShareRequest): Promise<ShareResponse> {
    return this.shares.create(account, body.previewId);
  }

  @Get(':id')
  @ApiOperation({ summary: 'The shared preview as JSON (public). Expired or unknown links are 404.' })
  @ApiOkResponse({
    description: 'The preview result as POST /api/preview returned it (its `id` is the preview id), plus `share: { id, url, expiresAt, createdAt }`.',
  })
  async read(@Param('id') id: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const found = await this.shares.findLive(id);
    if (!found) throw new ProblemException('not_found', 'No live share with this id.');
    const { share, preview } = found;
    const shareJson = JSON.stringify({
      id: share.id,
      url: this.shares.urlOf(share.id),
      expiresAt: share.expiresAt ? share.expiresAt.toISOString() : null,
      createdAt: share.createdAt.toISOString(),
    });
    // The stored result is one JSON object: the share goes in before its closing brace, unparsed.
    const previewJson = preview.status === 'completed' ? storedPreviewJson(preview) : Buffer.from(JSON.stringify({ id: preview.id, status: preview.status }));
    const closing = previewJson.lastIndexOf('}');
    await sendJsonBody(req, res, 200, { body: Buffer.concat([previewJson.subarray(0, closing), Buffer.from(`,"share":${shareJson}}`)]) });
  }
}
