import { GMAIL_CLIP_LIMIT_BYTES, GMAIL_CLIP_WARNING_BYTES } from './size-report';
import { email, reports, rules } from './testing/email-fixture';

describe('sizeReport', () => {
  it('counts UTF-8 bytes of the HTML as delivered', () => {
    const html = email('<p>héllo €</p>');
    const { sizeReport } = reports(html);
    expect(sizeReport.bytes).toBe(Buffer.byteLength(html, 'utf8'));
    expect(sizeReport.limit).toBe(102 * 1024);
    expect(sizeReport.clippingRisk).toBe(false);
    expect(sizeReport.issues).toEqual([]);
  });

  it('warns as the email nears Gmail clipping and errors past it', () => {
    const near = email(`<p>${'a'.repeat(GMAIL_CLIP_WARNING_BYTES + 100)}</p>`);
    expect(rules(reports(near).sizeReport.issues)).toEqual(['gmail-clip-warning']);
    const over = email(`<p>${'a'.repeat(GMAIL_CLIP_LIMIT_BYTES)}</p>`);
    const report = reports(over).sizeReport;
    expect(report.clippingRisk).toBe(true);
    expect(report.percentOfLimit).toBeGreaterThan(100);
    expect(rules(report.issues)).toContain('gmail-clipped');
  });

  it('suggests minifying when white space is a large share of a near-limit email', () => {
    const html = email(`<p>${'word         '.repeat(9000)}</p>`);
    expect(rules(reports(html).sizeReport.issues)).toEqual(expect.arrayContaining(['minify-whitespace']));
  });

  it('counts the white space a minifier would remove: every run beyond its first character', () => {
    const plain = reports(email('<p>a b</p>')).sizeReport.breakdown.whitespace;
    // Runs of 2, 3 and 5 characters (spaces, tab, CR LF) add 1 + 2 + 4; single spaces add nothing.
    const spaced = reports(email('<p>a b</p>  <p>c \t d</p>\r\n \t <i>e f</i>')).sizeReport.breakdown.whitespace;
    expect(spaced - plain).toBe(7);
  });

  it('flags a <style> block Gmail drops for its size', () => {
    const css = `.c { color: #111111; padding: 4px; }\n`.repeat(500);
    const report = reports(email('<p class="c">x</p>', { head: `<style>${css}</style>` })).sizeReport;
    expect(rules(report.issues)).toContain('gmail-style-block-too-large');
    expect(report.breakdown.styleBlocks).toBeGreaterThan(16 * 1024);
  });
});
