import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';

/**
 * `GET /`: a newcomer who opens the address `npm start` printed lands on a page that says where
 * things are, instead of a 404 problem. Static, no script, nothing from another origin.
 */
const HOME_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Mailproof</title>
<style>
body { font: 16px/1.5 system-ui, sans-serif; max-width: 42rem; margin: 3rem auto; padding: 0 1rem; color: #1f2328; }
h1 { margin-bottom: 0.25rem; }
p.lead { margin-top: 0; color: #59636e; }
code { background: #f3f4f6; padding: 0.1rem 0.3rem; border-radius: 4px; }
li { margin: 0.4rem 0; }
</style>
</head>
<body>
<h1>Mailproof</h1>
<p class="lead">Checks an email against 21 email clients before you send it, audits sending domains' DNS, and gates CI pipelines.</p>
<ul>
<li><a href="/app">The dashboard</a>: sign in with an API key to see your previews, gate runs, domains and keys</li>
<li><a href="/api/docs">API documentation</a> (Swagger UI; try <code>POST /api/preview</code> without a key), or the <a href="/api/openapi.json">OpenAPI document</a></li>
<li><a href="/api/clients">The 21 email clients</a> and <a href="/api/clients/properties">the CSS properties they support</a></li>
<li><a href="/health/ready">Readiness</a>: PostgreSQL, Redis and a worker on every queue</li>
<li>Share pages: <code>POST /api/share</code> (with a key) turns a preview into a link to <code>/share/&lt;id&gt;</code>, a page anyone with the link can open</li>
</ul>
<p>Accounts and API keys are created with the command-line tool: <code>npm run -s mailproof -- account create --name acme --plan pro</code>.</p>
</body>
</html>
`;

@ApiExcludeController()
@Controller()
export class HomeController {
  @Get()
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
  @Header('X-Content-Type-Options', 'nosniff')
  @Header('Cache-Control', 'no-cache')
  home(): string {
    return HOME_PAGE;
  }
}
