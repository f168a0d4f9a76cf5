import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ScreenshotRepository } from '@mailproof/persistence';
import { ProblemException } from '../problems/problem.exception';

const FILE_NAME = /^([0-9a-f]{64})\.png$/;

/**
 * Screenshots by content hash: public (the URL is the capability, 256 bits), immutable (the name is the
 * SHA-256 of the bytes), never sniffed and never anything but an image.
 */
@ApiTags('previews')
@Controller('screenshots')
export class ScreenshotsController {
  constructor(private readonly screenshots: ScreenshotRepository) {}

  @Get(':file')
  @ApiOperation({ summary: "A screenshot PNG, by the SHA-256 in its URL (the URLs of a preview's `screenshots`)." })
  @ApiProduces('image/png')
  @ApiOkResponse({ description: 'The PNG; cached for a year (immutable).' })
  @ApiResponse({ status: 404, description: 'no such screenshot (or its previews were deleted)' })
  async image(@Param('file') file: string, @Res() res: Response): Promise<void> {
    const hash = FILE_NAME.exec(file)?.[1];
    const png = hash ? await this.screenshots.getImage(hash) : null;
    if (!png) throw new ProblemException('not_found', 'No screenshot with this name.');
    res.setHeader('Content-Type', 'image/png');
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    res.setHeader('ETag', `"${hash}"`);
    res.status(200).end(png);
  }
}
