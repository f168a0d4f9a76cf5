import { isValidDkimSelector, normalizeDomain } from './normalize-domain';
import { punycodeEncode } from './punycode';

describe('normalizeDomain', () => {
  it.each([
    ['Example.COM', 'example.com'],
    ['example.com.', 'example.com'],
    ['  example.com  ', 'example.com'],
    ['https://www.Example.com/path?x=1#top', 'www.example.com'],
    ['http://example.com:8080', 'example.com'],
    ['//example.com/', 'example.com'],
    ['mailto:someone@example.org', 'example.org'],
    ['postmaster@Mail.Example.net', 'mail.example.net'],
    ['münchen.de', 'xn--mnchen-3ya.de'],
    ['bücher.example', 'xn--bcher-kva.example'],
    ['例え.テスト', 'xn--r8jz45g.xn--zckzah'],
    ['例え。テスト', 'xn--r8jz45g.xn--zckzah'],
    ['xn--mnchen-3ya.de', 'xn--mnchen-3ya.de'],
  ])('normalizes %j to %s', (input, expected) => {
    expect(normalizeDomain(input)).toEqual({ ok: true, domain: expected });
  });

  it.each([
    ['', 'empty'],
    ['   ', 'empty'],
    ['192.0.2.1', 'ip_literal'],
    ['http://192.0.2.1/', 'ip_literal'],
    ['[2001:db8::1]', 'ip_literal'],
    ['2001:db8::1', 'ip_literal'],
    ['localhost', 'single_label'],
    ['com.', 'single_label'],
    ['exa mple.com', 'invalid_characters'],
    ['-bad.example.com', 'invalid_characters'],
    ['a..b.com', 'invalid_characters'],
    ['under_score.example.com', 'invalid_characters'],
    [`${'a'.repeat(64)}.com`, 'label_too_long'],
    [`${Array.from({ length: 50 }, () => 'abcde').join('.')}.com`, 'too_long'],
  ])('rejects %j as %s', (input, reason) => {
    const result = normalizeDomain(input);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.reason).toBe(reason);
      expect(result.message.length).toBeGreaterThan(10);
    }
  });

  it('encodes RFC 3492 sample strings', () => {
    // RFC 3492 section 7.1 (A) Arabic (Egyptian) and (L) Japanese samples.
    expect(punycodeEncode('\u0644\u064A\u0647\u0645\u0627\u0628\u062A\u0643\u0644\u0645\u0648\u0634\u0639\u0631\u0628\u064A\u061F')).toBe(
      'egbpdaj6bu4bxfgehfvwxn',
    );
    expect(punycodeEncode('3\u5E74B\u7D44\u91D1\u516B\u5148\u751F')).toBe('3B-ww4c5e180e575a65lsy2b');
  });

  it('accepts DKIM selectors with dots and underscores, not spaces or empty ones', () => {
    expect(isValidDkimSelector('s1024.mail_2')).toBe(true);
    expect(isValidDkimSelector('')).toBe(false);
    expect(isValidDkimSelector('a b')).toBe(false);
    expect(isValidDkimSelector('a..b')).toBe(false);
  });
});
