/** Small hand-written emails for the gate specs, analyzed with the engine's real analysis. */
import { analyzeEmail } from '../../analyze-email';
import type { ClientId } from '../../clients/email-client';
import type { PreviewAnalysis } from '../../preview-analysis';

/** A plain table email: a heading, a paragraph, an https link, an image with alt text. */
export function email(body = ''): string {
  return (
    '<html lang="en"><head><meta charset="utf-8"><title>March update</title></head><body>' +
    '<table role="presentation" width="600" cellpadding="0" cellspacing="0"><tr><td>' +
    '<h1>March update</h1><p>Our new catalog is out.</p>' +
    '<p><a href="https://acme.test/catalog">Browse the catalog</a></p>' +
    '<img src="https://acme.test/hero.png" alt="Spring collection" width="600" height="300">' +
    body +
    '</td></tr></table></body></html>'
  );
}

export function analyze(html: string, clients?: readonly ClientId[]): PreviewAnalysis {
  return analyzeEmail(html, clients ? { clients } : {});
}
