import { UsageError } from './cli-errors';
import { looksLikeMaizzle, looksLikeMessage, parseClientsOption, planFormat } from './email-input';

describe('format detection', () => {
  it('follows --format, then the file name', () => {
    expect(planFormat('a.txt', 'mjml')).toEqual({ kind: 'decided', format: 'mjml', detectedBy: 'option' });
    expect(planFormat('a.MJML', undefined)).toEqual({ kind: 'decided', format: 'mjml', detectedBy: 'extension' });
    expect(planFormat('src/a.tsx', undefined)).toEqual({ kind: 'decided', format: 'jsx', detectedBy: 'extension' });
    expect(planFormat('a.jsx', undefined)).toEqual({ kind: 'decided', format: 'jsx', detectedBy: 'extension' });
    expect(planFormat('a.maizzle.html', undefined)).toEqual({ kind: 'decided', format: 'maizzle', detectedBy: 'extension' });
    expect(planFormat('exports/March.EML', undefined)).toEqual({ kind: 'decided', format: 'eml', detectedBy: 'extension' });
    expect(planFormat('a.htm', undefined)).toEqual({ kind: 'html-or-maizzle' });
    expect(planFormat('-', undefined)).toEqual({ kind: 'any' });
    expect(() => planFormat('a.txt', undefined)).toThrow(UsageError);
    expect(() => planFormat('Makefile', undefined)).toThrow('pass --format html|jsx|mjml|maizzle');
  });

  it('recognizes Maizzle by front matter, its layout or page expressions, not by merge tags', () => {
    expect(looksLikeMaizzle('---\ntitle: Hi\n---\n<p>x</p>')).toBe(true);
    expect(looksLikeMaizzle('\uFEFF---\r\ntitle: Hi\r\n---\r\n<p>x</p>')).toBe(true);
    expect(looksLikeMaizzle('<x-main><p>x</p></x-main>')).toBe(true);
    expect(looksLikeMaizzle('<extends src="src/layouts/main.html"><block name="template"></block></extends>')).toBe(true);
    expect(looksLikeMaizzle('<title>{{ page.title }}</title>')).toBe(true);
    expect(looksLikeMaizzle('<p>Hello {{name}}, {{ first_name }}</p>')).toBe(false);
    expect(looksLikeMaizzle('<hr>\n---\n<p>text</p>')).toBe(false);
  });
});

describe('a whole message on stdin', () => {
  it('is a header block (folded lines allowed) with From, MIME-Version or Content-Type, ended by a blank line', () => {
    expect(looksLikeMessage('From: Acme <news@acme.test>\r\nSubject: March\r\n\r\n<p>x</p>')).toBe(true);
    expect(looksLikeMessage('Subject: a long\n  folded subject\nMIME-Version: 1.0\n\nbody')).toBe(true);
    expect(looksLikeMessage('Subject: no sender\n\nbody')).toBe(false);
    expect(looksLikeMessage('<p>From: someone</p>\n\n')).toBe(false);
    expect(looksLikeMessage('From: Acme <news@acme.test>')).toBe(false);
    expect(looksLikeMessage('---\ntitle: Hi\n---\n<p>x</p>')).toBe(false);
  });
});

describe('--clients', () => {
  it('trims, drops empty entries and returns canonical order', () => {
    expect(parseClientsOption(undefined)).toBeUndefined();
    expect(parseClientsOption(' superhuman , gmail-web,')).toEqual(['gmail-web', 'superhuman']);
  });

  it('refuses unknown ids and an empty list as usage errors', () => {
    expect(() => parseClientsOption('gmail')).toThrow(/Unknown client id\(s\): gmail\. Valid ids: gmail-web/);
    expect(() => parseClientsOption(' , ')).toThrow(UsageError);
  });
});
