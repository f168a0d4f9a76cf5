import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { readFileSync } from 'node:fs';
import { DASHBOARD_SCRIPT, DASHBOARD_STYLES } from './dashboard.assets';

/** htmx from node_modules, read once at start: served from this origin, so the CSP stays 'self' and no CDN is involved. */
const HTMX = readFileSync(require.resolve('htmx.org/dist/htmx.min.js'), 'utf8');

@ApiExcludeController()
@Controller('app/assets')
export class DashboardAssetsController {
  @Get('htmx.min.js')
  @Header('Content-Type', 'text/javascript; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=86400')
  @Header('X-Content-Type-Options', 'nosniff')
  htmx(): string {
    return HTMX;
  }

  @Get('dashboard.js')
  @Header('Content-Type', 'text/javascript; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=3600')
  @Header('X-Content-Type-Options', 'nosniff')
  script(): string {
    return DASHBOARD_SCRIPT;
  }

  @Get('dashboard.css')
  @Header('Content-Type', 'text/css; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=3600')
  @Header('X-Content-Type-Options', 'nosniff')
  styles(): string {
    return DASHBOARD_STYLES;
  }
}
