import { ClientId } from '../clients/email-client';
import { CodeFix, EmailFormat } from './code-fix';

/**
 * Fix snippets per topic and format. The format changes the snippet (React Email components,
 * mj-* elements, Tailwind classes and Maizzle config), never which findings fire.
 */
type Topic =
  | 'flex-grid'
  | 'border-radius'
  | 'background-image'
  | 'max-width'
  | 'style-block'
  | 'link-stylesheet'
  | 'svg'
  | 'form'
  | 'script'
  | 'iframe'
  | 'font-face'
  | 'media-query'
  | 'dark-mode'
  | 'position'
  | 'shadow'
  | 'css-function'
  | 'relative-units'
  | 'pseudo-class'
  | 'media-element'
  | 'animation';

const TOPIC_BY_LABEL: Record<string, Topic> = {
  'display:flex': 'flex-grid',
  'display:grid': 'flex-grid',
  'flex-direction': 'flex-grid',
  'flex-wrap': 'flex-grid',
  'justify-content': 'flex-grid',
  'align-items': 'flex-grid',
  gap: 'flex-grid',
  'row-gap': 'flex-grid',
  'column-gap': 'flex-grid',
  'grid-template': 'flex-grid',
  'grid-template-columns': 'flex-grid',
  'grid-template-rows': 'flex-grid',
  'grid-template-areas': 'flex-grid',
  'border-radius': 'border-radius',
  'border-top-left-radius': 'border-radius',
  'border-top-right-radius': 'border-radius',
  'border-bottom-left-radius': 'border-radius',
  'border-bottom-right-radius': 'border-radius',
  'background-image': 'background-image',
  background: 'background-image',
  'background-size': 'background-image',
  'background-position': 'background-image',
  'linear-gradient()': 'background-image',
  'radial-gradient()': 'background-image',
  'conic-gradient()': 'background-image',
  'max-width': 'max-width',
  'min-width': 'max-width',
  'max-height': 'max-width',
  width: 'max-width',
  '<style>': 'style-block',
  'class selector': 'style-block',
  '<link rel="stylesheet">': 'link-stylesheet',
  '@import': 'link-stylesheet',
  '<svg>': 'svg',
  'SVG images': 'svg',
  '<form>': 'form',
  '<input type="text">': 'form',
  '<input type="submit">': 'form',
  '<select>': 'form',
  '<textarea>': 'form',
  '<button type="submit">': 'form',
  '<script>': 'script',
  '<iframe>': 'iframe',
  '@font-face': 'font-face',
  '@media': 'media-query',
  '@media (orientation)': 'media-query',
  '@media (hover)': 'media-query',
  '@media (prefers-color-scheme)': 'dark-mode',
  'color-scheme': 'dark-mode',
  'light-dark()': 'dark-mode',
  '<meta name="color-scheme">': 'dark-mode',
  position: 'position',
  left: 'position',
  right: 'position',
  top: 'position',
  bottom: 'position',
  'z-index': 'position',
  inset: 'position',
  float: 'position',
  'box-shadow': 'shadow',
  'text-shadow': 'shadow',
  filter: 'shadow',
  opacity: 'shadow',
  'calc()': 'css-function',
  'clamp()': 'css-function',
  'min()': 'css-function',
  'max()': 'css-function',
  'var()': 'css-function',
  'rem unit': 'relative-units',
  'em unit': 'relative-units',
  'vw unit': 'relative-units',
  'vh unit': 'relative-units',
  'vmin unit': 'relative-units',
  'vmax unit': 'relative-units',
  ':hover': 'pseudo-class',
  ':focus': 'pseudo-class',
  ':active': 'pseudo-class',
  '::before': 'pseudo-class',
  '::after': 'pseudo-class',
  '<video>': 'media-element',
  '<audio>': 'media-element',
  animation: 'animation',
  transition: 'animation',
  transform: 'animation',
  '@keyframes': 'animation',
};

const SUGGESTIONS: Record<Topic, string> = {
  'flex-grid': 'Lay out columns with tables (or hybrid inline-block columns inside an MSO ghost table) instead of flexbox or grid.',
  'border-radius': 'Accept square corners in this client or draw the shape with VML (v:roundrect) inside <!--[if mso]>.',
  'background-image': 'Set a solid background-color fallback and, for Outlook Classic, add a VML v:rect with v:fill.',
  'max-width': 'Give the element a fixed width attribute and wrap it in an MSO ghost table so the Word engine keeps the width.',
  'style-block': 'Inline the styles the layout depends on (style attributes) and keep <style> for progressive enhancement only.',
  'link-stylesheet': 'Put the CSS in a <style> block or inline it; external stylesheets are not loaded.',
  svg: 'Export the graphic as PNG (or JPG) and use <img> with width, height and alt.',
  form: 'Link to a hosted form instead of embedding one.',
  script: 'Remove scripts: no email client runs them. Use links to a web page for interactivity.',
  iframe: 'Replace the frame with a linked image (a thumbnail) that opens the content in a browser.',
  'font-face': 'Keep a web-safe fallback in every font-family stack; web fonts load only in some clients.',
  'media-query': 'Make the default (non-media) layout work on its own: fluid tables with max-width and fixed-width MSO ghost tables.',
  'dark-mode': 'Add <meta name="color-scheme" content="light dark"> and pair @media (prefers-color-scheme: dark) with [data-ogsc] rules for Outlook.',
  position: 'Use table cells, padding and alignment instead of positioning.',
  shadow: 'Treat the effect as decoration: the design must still read without it.',
  'css-function': 'Write the computed value (a plain length or color) before the function, as a fallback declaration.',
  'relative-units': 'Use px for font sizes, widths and spacing; relative units resolve differently between clients.',
  'pseudo-class': 'Treat hover and generated content as enhancements; the email must work without them.',
  'media-element': 'Use an animated GIF or a linked poster image that opens the video in a browser.',
  animation: 'Treat motion as an enhancement; the first frame must read on its own.',
};

type FixTable = Partial<Record<Topic, Partial<Record<EmailFormat, CodeFix>>>>;

const FIXES: FixTable = {
  'flex-grid': {
    html: {
      before: '<div style="display:flex; gap:16px">\n  <div>Left</div>\n  <div>Right</div>\n</div>',
      after:
        '<table role="presentation" width="100%" cellpadding="0" cellspacing="0">\n  <tr>\n    <td width="50%" valign="top" style="padding-right:8px">Left</td>\n    <td width="50%" valign="top" style="padding-left:8px">Right</td>\n  </tr>\n</table>',
      language: 'html',
      description: 'Replace the flex or grid container with a presentation table: every client lays out table cells.',
    },
    jsx: {
      before: '<div style={{ display: "flex", gap: 16 }}>\n  <div>Left</div>\n  <div>Right</div>\n</div>',
      after:
        'import { Row, Column } from "@react-email/components";\n\n<Row>\n  <Column style={{ width: "50%", paddingRight: 8 }}>Left</Column>\n  <Column style={{ width: "50%", paddingLeft: 8 }}>Right</Column>\n</Row>',
      language: 'jsx',
      description: 'Use React Email Row and Column: they render table layouts every client understands.',
    },
    mjml: {
      before: '<mj-text><div style="display:flex">…</div></mj-text>',
      after:
        '<mj-section>\n  <mj-column width="50%"><mj-text>Left</mj-text></mj-column>\n  <mj-column width="50%"><mj-text>Right</mj-text></mj-column>\n</mj-section>',
      language: 'mjml',
      description: 'Use mj-section and mj-column; MJML emits tables and MSO ghost tables for Outlook.',
    },
    maizzle: {
      before: '<div class="flex gap-4">…</div>',
      after:
        '<table class="w-full">\n  <tr>\n    <td class="w-1/2 pr-2 align-top">Left</td>\n    <td class="w-1/2 pl-2 align-top">Right</td>\n  </tr>\n</table>',
      language: 'maizzle',
      description: 'Use a table with Tailwind width and padding classes; Maizzle inlines them at build time.',
    },
  },
  'border-radius': {
    html: {
      before: '<a href="https://example.com" style="background:#2563eb; border-radius:6px; padding:12px 24px; color:#fff">Buy now</a>',
      after:
        '<!--[if mso]>\n<v:roundrect xmlns:v="urn:schemas-microsoft-com:vml" href="https://example.com" style="height:44px;v-text-anchor:middle;width:160px" arcsize="14%" fillcolor="#2563eb" stroke="f">\n  <center style="color:#ffffff;font-family:Arial,sans-serif;font-size:16px">Buy now</center>\n</v:roundrect>\n<![endif]-->\n<!--[if !mso]><!-->\n<a href="https://example.com" style="background:#2563eb; border-radius:6px; padding:12px 24px; color:#fff">Buy now</a>\n<!--<![endif]-->',
      language: 'html',
      description: 'Draw the rounded button with VML v:roundrect for the Word engine; other clients keep the CSS button.',
    },
    jsx: {
      before: '<a href={url} style={{ borderRadius: 6, background: "#2563eb" }}>Buy now</a>',
      after:
        'import { Button } from "@react-email/components";\n\n<Button href={url} style={{ borderRadius: 6, background: "#2563eb", padding: "12px 24px", color: "#fff" }}>\n  Buy now\n</Button>',
      language: 'jsx',
      description: 'React Email Button keeps the padding clickable in Outlook; corners stay square there (add VML by hand if they matter).',
    },
    mjml: {
      before: '<mj-text><a style="border-radius:6px">Buy now</a></mj-text>',
      after: '<mj-button href="https://example.com" border-radius="6px" background-color="#2563eb">Buy now</mj-button>',
      language: 'mjml',
      description: 'mj-button handles the button table; MJML does not generate VML, so Outlook Classic shows square corners.',
    },
    maizzle: {
      before: '<a class="rounded-md bg-blue-600 px-6 py-3">Buy now</a>',
      after:
        '<!--[if mso]><v:roundrect xmlns:v="urn:schemas-microsoft-com:vml" arcsize="14%" fillcolor="#2563eb" stroke="f" style="height:44px;width:160px;v-text-anchor:middle"><center>Buy now</center></v:roundrect><![endif]-->\n<!--[if !mso]><!--><a class="rounded-md bg-blue-600 px-6 py-3">Buy now</a><!--<![endif]-->',
      language: 'maizzle',
      description: 'Keep the Tailwind classes for modern clients and add a VML roundrect in an MSO conditional.',
    },
  },
  'background-image': {
    html: {
      before: '<td style="background-image:url(hero.jpg); background-size:cover">…</td>',
      after:
        '<td background="hero.jpg" bgcolor="#1f2937" style="background:#1f2937 url(hero.jpg) center/cover">\n  <!--[if gte mso 9]>\n  <v:rect xmlns:v="urn:schemas-microsoft-com:vml" fill="true" stroke="false" style="width:600px;height:300px">\n    <v:fill type="frame" src="hero.jpg" color="#1f2937" />\n    <v:textbox inset="0,0,0,0">\n  <![endif]-->\n  …\n  <!--[if gte mso 9]></v:textbox></v:rect><![endif]-->\n</td>',
      language: 'html',
      description: 'Add a solid bgcolor fallback and a VML v:rect/v:fill so Outlook Classic shows the image.',
    },
    jsx: {
      before: '<Section style={{ backgroundImage: "url(hero.jpg)" }}>…</Section>',
      after: '<Section style={{ backgroundColor: "#1f2937", backgroundImage: "url(hero.jpg)", backgroundSize: "cover" }}>…</Section>',
      language: 'jsx',
      description: 'Always pair a background image with backgroundColor so text stays readable where the image is dropped.',
    },
    mjml: {
      before: '<mj-section css-class="hero">…</mj-section>',
      after: '<mj-section background-url="https://example.com/hero.jpg" background-size="cover" background-color="#1f2937">…</mj-section>',
      language: 'mjml',
      description: 'mj-section background-url generates the VML background Outlook Classic needs.',
    },
    maizzle: {
      before: '<td class="bg-[url(hero.jpg)] bg-cover">…</td>',
      after:
        '<td class="bg-gray-800 bg-[url(hero.jpg)] bg-cover" background="hero.jpg">\n  <!--[if mso]><v:rect xmlns:v="urn:schemas-microsoft-com:vml" fill="true" stroke="false" style="width:600px"><v:fill type="frame" src="hero.jpg" color="#1f2937" /><v:textbox inset="0,0,0,0"><![endif]-->\n  …\n  <!--[if mso]></v:textbox></v:rect><![endif]-->\n</td>',
      language: 'maizzle',
      description: 'Add a bg color class as fallback and a VML block for Outlook Classic.',
    },
  },
  'max-width': {
    html: {
      before: '<div style="max-width:600px; margin:0 auto">…</div>',
      after:
        '<!--[if mso]><table role="presentation" width="600" align="center"><tr><td><![endif]-->\n<div style="max-width:600px; margin:0 auto">…</div>\n<!--[if mso]></td></tr></table><![endif]-->',
      language: 'html',
      description: 'Wrap the fluid container in an MSO ghost table with a fixed width for the Word engine.',
    },
    jsx: {
      before: '<div style={{ maxWidth: 600, margin: "0 auto" }}>…</div>',
      after: 'import { Container } from "@react-email/components";\n\n<Container style={{ maxWidth: 600 }}>…</Container>',
      language: 'jsx',
      description: 'React Email Container renders a centred table with the width Outlook needs.',
    },
    mjml: {
      before: '<mj-text><div style="max-width:600px">…</div></mj-text>',
      after: '<mj-body width="600px">…</mj-body>',
      language: 'mjml',
      description: 'Set the width on mj-body; MJML writes the MSO ghost tables for Outlook.',
    },
    maizzle: {
      before: '<div class="max-w-[600px] mx-auto">…</div>',
      after: '<table class="w-[600px] max-w-full mx-auto" align="center">\n  <tr><td>…</td></tr>\n</table>',
      language: 'maizzle',
      description: 'Use a table with a fixed Tailwind width and max-w-full for mobile.',
    },
  },
  'style-block': {
    html: {
      before: '<style>.title { color:#111827; font-size:24px }</style>\n<h1 class="title">Hello</h1>',
      after: '<h1 class="title" style="color:#111827; font-size:24px">Hello</h1>',
      language: 'html',
      description: 'Inline the declarations the layout needs (run an inliner such as juice at build time).',
    },
    jsx: {
      before: '<Head><style>{`.title { color: #111827 }`}</style></Head>\n<Heading className="title">Hello</Heading>',
      after: 'import { Heading } from "@react-email/components";\n\n<Heading style={{ color: "#111827", fontSize: 24 }}>Hello</Heading>',
      language: 'jsx',
      description: 'Pass styles through the style prop (or the Tailwind component, which inlines) instead of class rules.',
    },
    mjml: {
      before: '<mj-style>.title div { color:#111827 }</mj-style>',
      after: '<mj-style inline="inline">.title div { color:#111827 }</mj-style>',
      language: 'mjml',
      description: 'mj-style inline="inline" makes MJML inline the rules into the markup.',
    },
    maizzle: {
      before: '<style>.title { color:#111827 }</style>',
      after: '// config.production.js\nexport default {\n  css: { inline: true, purge: true },\n}',
      language: 'js',
      description: 'Let Maizzle inline Tailwind utilities at build time (css.inline) instead of shipping class rules.',
    },
  },
  'link-stylesheet': {
    html: {
      before: '<link rel="stylesheet" href="https://example.com/email.css">',
      after: '<style>\n  /* the rules of email.css, then inline the critical ones */\n</style>',
      language: 'html',
      description: 'Ship the CSS inside the email.',
    },
    jsx: {
      before: '<Head><link rel="stylesheet" href="email.css" /></Head>',
      after: 'import { Tailwind } from "@react-email/components";\n\n<Tailwind>{/* utility classes are inlined at render time */}</Tailwind>',
      language: 'jsx',
      description: 'Use inline style props or the Tailwind component instead of an external stylesheet.',
    },
    mjml: {
      before: '<mj-include path="email.css" type="css" />',
      after: '<mj-style inline="inline">/* rules */</mj-style>',
      language: 'mjml',
      description: 'Put the rules in mj-style (inline="inline" for the ones the layout needs).',
    },
    maizzle: {
      before: '<link rel="stylesheet" href="email.css">',
      after: '<style>\n  @tailwind components;\n  @tailwind utilities;\n</style>',
      language: 'maizzle',
      description: 'Let Maizzle compile and inline the CSS at build time.',
    },
  },
  svg: {
    html: {
      before: '<svg width="24" height="24">…</svg>',
      after: '<img src="https://example.com/icon.png" width="24" height="24" alt="Icon" style="display:block; border:0">',
      language: 'html',
      description: 'Replace inline SVG with a PNG image.',
    },
    jsx: {
      before: '<svg width={24} height={24}>…</svg>',
      after: 'import { Img } from "@react-email/components";\n\n<Img src="https://example.com/icon.png" width={24} height={24} alt="Icon" />',
      language: 'jsx',
      description: 'Use React Email Img with a PNG.',
    },
    mjml: {
      before: '<mj-raw><svg>…</svg></mj-raw>',
      after: '<mj-image src="https://example.com/icon.png" width="24px" alt="Icon" />',
      language: 'mjml',
      description: 'Use mj-image with a PNG.',
    },
    maizzle: {
      before: '<svg class="w-6 h-6">…</svg>',
      after: '<img src="images/icon.png" width="24" height="24" alt="Icon" class="block">',
      language: 'maizzle',
      description: 'Use an <img> with a PNG from the images folder.',
    },
  },
  form: {
    html: {
      before: '<form action="https://example.com/survey"><input type="text" name="q"><button>Send</button></form>',
      after: '<a href="https://example.com/survey" style="display:inline-block; padding:12px 24px; background:#2563eb; color:#ffffff">Answer the survey</a>',
      language: 'html',
      description: 'Link to the form on the web.',
    },
    jsx: {
      before: '<form action={url}>…</form>',
      after: 'import { Button } from "@react-email/components";\n\n<Button href={url}>Answer the survey</Button>',
      language: 'jsx',
      description: 'A React Email Button that links to the hosted form.',
    },
    mjml: {
      before: '<mj-raw><form>…</form></mj-raw>',
      after: '<mj-button href="https://example.com/survey">Answer the survey</mj-button>',
      language: 'mjml',
      description: 'An mj-button that links to the hosted form.',
    },
    maizzle: {
      before: '<form>…</form>',
      after: '<a href="https://example.com/survey" class="inline-block px-6 py-3 bg-blue-600 text-white">Answer the survey</a>',
      language: 'maizzle',
      description: 'A Tailwind-styled link to the hosted form.',
    },
  },
  'font-face': {
    html: {
      before: '<style>@font-face { font-family: Brand; src: url(brand.woff2) }</style>\n<p style="font-family: Brand">',
      after: '<p style="font-family: Brand, Helvetica, Arial, sans-serif">',
      language: 'html',
      description: 'Keep the web font for clients that load it and end the stack with web-safe fonts.',
    },
    jsx: {
      before: '<style>{"@font-face { … }"}</style>',
      after:
        'import { Font } from "@react-email/components";\n\n<Head>\n  <Font fontFamily="Brand" fallbackFontFamily={["Helvetica", "Arial", "sans-serif"]} webFont={{ url: "https://example.com/brand.woff2", format: "woff2" }} />\n</Head>',
      language: 'jsx',
      description: 'React Email Font declares the face and its fallback stack.',
    },
    mjml: {
      before: '<mj-style>@font-face { … }</mj-style>',
      after:
        '<mj-head>\n  <mj-font name="Brand" href="https://example.com/brand.css" />\n  <mj-attributes><mj-all font-family="Brand, Helvetica, Arial, sans-serif" /></mj-attributes>\n</mj-head>',
      language: 'mjml',
      description: 'mj-font loads the face only where supported; mj-all sets the fallback stack.',
    },
    maizzle: {
      before: '@font-face { … }',
      after:
        '// config.js\nexport default {\n  googleFonts: "Inter:ital,wght@0,400;0,600",\n}\n// tailwind.config.js: fontFamily: { sans: ["Inter", "Helvetica", "Arial", "sans-serif"] }',
      language: 'js',
      description: 'Use Maizzle googleFonts and a Tailwind font stack with web-safe fallbacks.',
    },
  },
  'media-query': {
    html: {
      before: '<style>@media (max-width:600px) { .col { width:100% !important } }</style>',
      after:
        '<!--[if mso]><table role="presentation" width="600"><tr><td width="300" valign="top"><![endif]-->\n<div class="col" style="display:inline-block; width:100%; max-width:300px; vertical-align:top">…</div>\n<!--[if mso]></td></tr></table><![endif]-->',
      language: 'html',
      description: 'Hybrid (spongy) columns stack on small screens without any media query.',
    },
    jsx: {
      before: '<style>{"@media (max-width:600px) { … }"}</style>',
      after: '<Row>\n  <Column style={{ display: "inline-block", width: "100%", maxWidth: 300 }}>…</Column>\n</Row>',
      language: 'jsx',
      description: 'Fluid Column widths with maxWidth work without media queries.',
    },
    mjml: {
      before: '<mj-style>@media (max-width:600px) { … }</mj-style>',
      after: '<mj-head><mj-breakpoint width="480px" /></mj-head>',
      language: 'mjml',
      description: 'mj-column stacks below the mj-breakpoint width; MJML writes the queries and fallbacks.',
    },
    maizzle: {
      before: '@media (max-width:600px) { … }',
      after: '<td class="w-[300px] sm:w-full">…</td>\n// tailwindcss-preset-email: sm is a max-width screen',
      language: 'maizzle',
      description: 'Use Tailwind responsive variants (max-width screens from tailwindcss-preset-email).',
    },
  },
  'dark-mode': {
    html: {
      before: '<style>@media (prefers-color-scheme: dark) { .body { background:#111 } }</style>',
      after:
        '<meta name="color-scheme" content="light dark">\n<meta name="supported-color-schemes" content="light dark">\n<style>\n  :root { color-scheme: light dark; }\n  @media (prefers-color-scheme: dark) { .body { background:#111111 !important } }\n  [data-ogsb] .body { background:#111111 !important }\n</style>',
      language: 'html',
      description: 'Declare color-scheme support and repeat the dark rules with [data-ogsc]/[data-ogsb] for Outlook.',
    },
    jsx: {
      before: '<Head />',
      after:
        '<Head>\n  <meta name="color-scheme" content="light dark" />\n  <meta name="supported-color-schemes" content="light dark" />\n  <style>{"@media (prefers-color-scheme: dark) { .body { background: #111111 !important } }"}</style>\n</Head>',
      language: 'jsx',
      description: 'Add the color-scheme meta tags and dark rules in React Email Head.',
    },
    mjml: {
      before: '<mj-head></mj-head>',
      after:
        '<mj-head>\n  <mj-raw><meta name="color-scheme" content="light dark"></mj-raw>\n  <mj-style>@media (prefers-color-scheme: dark) { .body { background:#111111 !important } }</mj-style>\n</mj-head>',
      language: 'mjml',
      description: 'Add the meta through mj-raw and the dark rules in mj-style.',
    },
    maizzle: {
      before: '<div class="bg-white">',
      after: '<div class="bg-white dark:bg-gray-900">\n// tailwind.config.js: darkMode: "media"',
      language: 'maizzle',
      description: 'Tailwind dark: variants compile to prefers-color-scheme queries; add the color-scheme meta in the layout.',
    },
  },
};

export function topicFor(label: string): Topic | undefined {
  return TOPIC_BY_LABEL[label];
}

export function suggestionFor(label: string, clientName: string): string {
  const topic = topicFor(label);
  if (topic) return SUGGESTIONS[topic];
  return `Make sure the email still reads when ${clientName} ignores ${label}, or provide a fallback for it.`;
}

/** A code fix for a finding; `format` picks framework-native snippets. Undefined when none exists. */
export function fixFor(label: string, format: EmailFormat, client: ClientId): CodeFix | undefined {
  const topic = topicFor(label);
  if (!topic) return undefined;
  // VML fixes only help the Word engine; other clients get the format's generic snippet.
  if ((topic === 'border-radius' || topic === 'background-image') && client !== 'outlook-windows-legacy' && format === 'html') return undefined;
  return FIXES[topic]?.[format];
}
