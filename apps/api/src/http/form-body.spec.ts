import { parseFormBody } from './body-parsing';

describe('parseFormBody (the dashboard forms)', () => {
  it('gives a field once as a string and a repeated one as an array', () => {
    const fields = parseFormBody(Buffer.from('title=Spring+%3Cb%3E&clients=gmail-web&clients=yahoo-mail&_csrf=abc'))!;
    expect(fields.title).toBe('Spring <b>');
    expect(fields.clients).toEqual(['gmail-web', 'yahoo-mail']);
    expect(fields._csrf).toBe('abc');
  });

  it('has no prototype, so __proto__ is an ordinary field name', () => {
    const fields = parseFormBody(Buffer.from('__proto__=x&constructor=y'))!;
    expect(Object.getPrototypeOf(fields)).toBeNull();
    expect(fields.__proto__).toBe('x');
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('drops NUL characters and refuses bytes that are not UTF-8', () => {
    expect(parseFormBody(Buffer.from('a=1%002'))!.a).toBe('12');
    expect(parseFormBody(Buffer.from([0x61, 0x3d, 0xff, 0xfe]))).toBeNull();
  });
});
