/**
 * The layouts and components a Maizzle template can use without files. Written for Mailproof after
 * Maizzle 5's starter: the same markup patterns (MSO settings, preheader, separators, bulletproof
 * button) so compiled output looks like what `maizzle build` produces for the common starter tags.
 * Components read their attributes as `props.*`; `<yield />` is where the caller's content goes.
 */
export const BUILT_IN_LAYOUTS: Record<string, string> = {
  main: `<!DOCTYPE {{{ page.doctype || 'html' }}}>
<html lang="{{ page.language || 'en' }}" xmlns:v="urn:schemas-microsoft-com:vml">
<head>
  <meta charset="{{ page.charset || 'utf-8' }}">
  <meta name="x-apple-disable-message-reformatting">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="format-detection" content="telephone=no, date=no, address=no, email=no, url=no">
  <meta name="color-scheme" content="light dark">
  <meta name="supported-color-schemes" content="light dark">
  <!--[if mso]>
  <noscript>
    <xml>
      <o:OfficeDocumentSettings xmlns:o="urn:schemas-microsoft-com:office:office">
        <o:PixelsPerInch>96</o:PixelsPerInch>
      </o:OfficeDocumentSettings>
    </xml>
  </noscript>
  <style>
    td,th,div,p,a,h1,h2,h3,h4,h5,h6 {font-family: "Segoe UI", sans-serif; mso-line-height-rule: exactly;}
  </style>
  <![endif]-->
  <if condition="page.title">
    <title>{{{ page.title }}}</title>
  </if>
  <style>
    @tailwind components;
    @tailwind utilities;
  </style>
  <stack name="head" />
</head>
<body class="m-0 p-0 w-full [word-break:break-word] [-webkit-font-smoothing:antialiased] {{ page.bodyClass || '' }}">
  <if condition="page.preheader">
    <div class="hidden">
      {{{ page.preheader }}}
      <each loop="item in Array.from(Array(150))">&#8199;&#65279;&#847; </each>
    </div>
  </if>
  <div role="article" aria-roledescription="email" aria-label="{{{ page.title || '' }}}" lang="{{ page.language || 'en' }}">
    <yield />
  </div>
  <stack name="body" />
</body>
</html>`,
};

export const BUILT_IN_COMPONENTS: Record<string, string> = {
  button: `<div class="{{ props.align ? 'text-' + props.align : '' }}">
  <a href="{{ props.href || '' }}" class="inline-block py-4 px-6 text-base/none font-semibold rounded no-underline {{ props.class || 'bg-indigo-700 text-white' }}" style="{{ props.style || '' }}">
    <!--[if mso]><i style="mso-font-width: 150%; mso-text-raise: 30px" hidden>&emsp;</i><![endif]-->
    <span style="mso-text-raise: 16px"><yield /></span>
    <!--[if mso]><i hidden style="mso-font-width: 150%;">&emsp;&#8203;</i><![endif]-->
  </a>
</div>`,
  spacer: `<div role="separator" class="{{ props.class || '' }}" style="line-height: {{ props.height || props.size || '24px' }};{{ props['mso-height'] ? ' mso-line-height-alt: ' + props['mso-height'] + ';' : '' }}">&zwj;</div>`,
  divider: `<div role="separator" class="{{ props.class || '' }}" style="height: {{ props.height || '1px' }}; line-height: {{ props.height || '1px' }}; background-color: {{ props.color || '#cbd5e1' }}; margin: {{ props['space-y'] || '24px' }} 0;">&zwj;</div>`,
};

/** `src` values that name a built-in: "button", "components/button.html", "src/layouts/main.html"… */
export function builtInName(src: string, kind: 'layouts' | 'components'): string | undefined {
  const trimmed = src.trim();
  // Absolute paths, parent segments and URLs never name a built-in.
  if (/^[\\/]|^[a-z]+:|(^|[\\/])\.\.([\\/]|$)/i.test(trimmed)) return undefined;
  const name = trimmed
    .replace(/^\.\//, '')
    .replace(/^(src\/)?/, '')
    .replace(new RegExp(`^${kind}/`), '')
    .replace(/\.html$/, '');
  const table = kind === 'layouts' ? BUILT_IN_LAYOUTS : BUILT_IN_COMPONENTS;
  return Object.prototype.hasOwnProperty.call(table, name) ? name : undefined;
}
