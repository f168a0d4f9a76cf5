import { prefixSelector } from './selector-prefix';

describe('prefixSelector', () => {
  it('prefixes every class and id name, and only those', () => {
    expect(prefixSelector('.a .b', 'x_', 'x_')).toBe('.x_a .x_b');
    expect(prefixSelector('#id.c', 'x_', 'y_')).toBe('#y_id.x_c');
    expect(prefixSelector('#a.b', 'x_', undefined)).toBe('#a.x_b');
    expect(prefixSelector('a:not(.b)', 'x_', undefined)).toBe('a:not(.x_b)');
    expect(prefixSelector('.-x, ._y, .é', 'x_', undefined)).toBe('.x_-x, .x__y, .x_é');
  });

  it('leaves numbers, attribute selectors, strings and escapes alone', () => {
    expect(prefixSelector('50.5%', 'x_', 'x_')).toBe('50.5%');
    expect(prefixSelector('.5em', 'x_', 'x_')).toBe('.5em');
    expect(prefixSelector('th.large-12.first', 'x_', undefined)).toBe('th.x_large-12.x_first');
    expect(prefixSelector('[class="a.b"] .c', 'x_', undefined)).toBe('[class="a.b"] .x_c');
    expect(prefixSelector("a[title='.x'] .d", 'x_', undefined)).toBe("a[title='.x'] .x_d");
    expect(prefixSelector('".q" .r', 'x_', undefined)).toBe('".q" .x_r');
    expect(prefixSelector('.a\\.b', 'x_', undefined)).toBe('.x_a\\.b');
    expect(prefixSelector('.a\\', 'x_', undefined)).toBe('.x_a\\');
  });

  it('returns the selector itself when there is nothing to prefix', () => {
    expect(prefixSelector('td > a:hover', 'x_', 'x_')).toBe('td > a:hover');
    expect(prefixSelector('.a', undefined, undefined)).toBe('.a');
    expect(prefixSelector('#a', 'x_', '')).toBe('#a');
  });
});
