import { imageFormatOf } from './context/report-context';
import { email, reports, rules } from './testing/email-fixture';

function images(body: string, clients?: string[]) {
  return reports(email(body), clients ? { clients } : {}).imageReport;
}

describe('imageReport', () => {
  it('describes each image and leaves bytes to the worker', () => {
    const report = images(
      '<a href="https://acme.test"><img src="https://acme.test/hero.jpg" alt="Spring collection" width="600" height="300" style="display:block;color:#333333;font-family:Arial"></a>',
    );
    expect(report.total).toBe(1);
    expect(report.images[0]).toMatchObject({
      src: 'https://acme.test/hero.jpg',
      alt: 'Spring collection',
      width: 600,
      height: 300,
      format: 'jpeg',
      isTrackingPixel: false,
      linked: true,
      bytes: null,
      line: 1,
      droppedBy: [],
      rules: [],
      fallback: { altText: true, styledAlt: true },
    });
    expect(report.issues).toEqual([]);
  });

  it('detects tracking pixels and does not hold them to content rules', () => {
    const report = images('<img src="https://t.acme.test/open.gif" width="1" height="1" alt=""><img src="https://t.acme.test/o2.gif" style="display:none">');
    expect(report.trackingPixels).toBe(2);
    expect(report.issues).toEqual([]);
  });

  it('lists the requested clients that drop SVG and WebP, from caniemail data', () => {
    const report = images('<img src="https://acme.test/logo.svg" alt="Acme" width="120">', ['gmail-web', 'apple-mail-ios']);
    expect(report.images[0].droppedBy).toEqual(['gmail-web']);
    expect(rules(report.issues)).toEqual(['unsupported-image-format']);
    const webp = images('<img src="https://acme.test/photo.webp" alt="Photo" width="120">', ['outlook-windows-legacy', 'apple-mail-macos']);
    expect(webp.images[0].droppedBy).toEqual(['outlook-windows-legacy']);
    expect(images('<img src="https://acme.test/photo.png" alt="Photo" width="120">', ['outlook-windows-legacy']).images[0].droppedBy).toEqual([]);
  });

  it('flags data URIs Gmail drops, relative and insecure sources, and a missing width attribute', () => {
    expect(rules(images('<img src="data:image/png;base64,iVBORw0KGgo=" alt="Dot" width="10">', ['gmail-web']).issues)).toEqual(['data-uri-image']);
    expect(rules(images('<img src="images/hero.png" alt="Hero" width="120">').issues)).toEqual(['relative-src']);
    expect(rules(images('<img src="http://acme.test/hero.png" alt="Hero" width="120">').issues)).toEqual(['insecure-src']);
    expect(rules(images('<img src="https://acme.test/hero.png" alt="Hero" style="width:120px">').issues)).toEqual(['missing-width-attribute']);
    expect(rules(images('<img src="" alt="Hero" width="120">').issues)).toEqual(['empty-src']);
  });

  it('checks blocked-image fallbacks: alt, background behind the image, text baked into images', () => {
    expect(rules(images('<img src="https://acme.test/a.png" width="600">').issues)).toEqual(['missing-alt']);
    expect(rules(images('<img src="https://acme.test/a.png" alt="Spring sale" width="600">').issues)).toEqual(['blocked-image-no-fallback']);
    expect(
      images('<table><tr><td bgcolor="#f4f4f4"><img src="https://acme.test/a.png" alt="Spring sale" width="600"></td></tr></table>').images[0].fallback
        .backgroundColor,
    ).toBe('#f4f4f4');
    expect(
      rules(
        images(
          '<table><tr><td bgcolor="#f4f4f4"><img src="https://acme.test/a.png" alt="Everything in the store is forty percent off until Sunday night only" width="600"></td></tr></table>',
        ).issues,
      ),
    ).toEqual(['image-carries-text']);
  });

  it('includes background images and wants a fallback color', () => {
    const report = images('<table><tr><td background="https://acme.test/bg.jpg" style="color:#ffffff">Over a photo</td></tr></table>');
    expect(report.images[0]).toMatchObject({ kind: 'background', src: 'https://acme.test/bg.jpg' });
    expect(rules(report.issues)).toEqual(['background-image-no-color']);
    expect(images('<div style="background:#123456 url(https://acme.test/bg.jpg)">x</div>').issues).toEqual([]);
  });

  it('reads formats from extensions, data URIs and CDN parameters', () => {
    expect(imageFormatOf('https://cdn.test/a/b.JPG?x=1')).toBe('jpeg');
    expect(imageFormatOf('data:image/svg+xml;base64,AAA')).toBe('svg');
    expect(imageFormatOf('https://images.test/photo?fm=webp&w=600')).toBe('webp');
    expect(imageFormatOf('https://images.test/photo')).toBe('unknown');
  });
});
