import type { CodeFix, EmailFormat } from '../fixes/code-fix';
import { fixFor } from '../fixes/fix-catalog';

type FrameworkFormat = Exclude<EmailFormat, 'html'>;
type Snippets = Partial<Record<FrameworkFormat, CodeFix>>;

function snippet(language: CodeFix['language'], before: string, after: string, description: string): CodeFix {
  return { before, after, language, description };
}

/**
 * How to write each fix in the template's own framework, so the next build does not bring the problem back
 * (the patched email of a jsx or Maizzle template is its compiled HTML). Topics the fix catalog already
 * covers (font stacks, dark mode, background fallbacks) come from there.
 */
const SNIPPETS: Record<string, Snippets> = {
  'layout-table-role': {
    jsx: snippet(
      'jsx',
      '<table>\n  <tr><td>…</td></tr>\n</table>',
      'import { Section, Row, Column } from "@react-email/components";\n\n<Section>\n  <Row><Column>…</Column></Row>\n</Section>',
      'React Email Section, Row and Column render tables with role="presentation"; a raw <table> needs the attribute written.',
    ),
    mjml: snippet(
      'mjml',
      '<mj-table>…</mj-table>',
      '<mj-table role="presentation">…</mj-table>',
      'mj-table takes role="presentation"; MJML writes it on its own layout tables.',
    ),
    maizzle: snippet(
      'maizzle',
      '<table class="w-full">',
      '<table class="w-full" role="presentation">',
      'Write role="presentation" on layout tables in the template.',
    ),
  },
  'decorative-image-alt': {
    jsx: snippet(
      'jsx',
      '<Img src={pixel} width={1} height={1} />',
      '<Img src={pixel} width={1} height={1} alt="" />',
      'Give tracking pixels and spacers an empty alt.',
    ),
    mjml: snippet(
      'mjml',
      '<mj-raw><img src="pixel.gif" width="1" height="1"></mj-raw>',
      '<mj-raw><img src="pixel.gif" width="1" height="1" alt=""></mj-raw>',
      'Give tracking pixels and spacers an empty alt.',
    ),
    maizzle: snippet(
      'maizzle',
      '<img src="images/spacer.gif" width="1" height="1">',
      '<img src="images/spacer.gif" width="1" height="1" alt="">',
      'Give tracking pixels and spacers an empty alt.',
    ),
  },
  'office-document-settings': {
    mjml: snippet(
      'mjml',
      '<mj-head>…</mj-head>',
      '<mj-head>\n  <mj-raw><!--[if mso]><xml><o:OfficeDocumentSettings><o:AllowPNG/><o:PixelsPerInch>96</o:PixelsPerInch></o:OfficeDocumentSettings></xml><![endif]--></mj-raw>\n</mj-head>',
      "MJML's own skeleton writes this block; a custom skeleton needs it through mj-raw.",
    ),
    maizzle: snippet(
      'maizzle',
      '<head>\n  <meta charset="utf-8">',
      '<head>\n  <meta charset="utf-8">\n  <!--[if mso]><xml><o:OfficeDocumentSettings><o:AllowPNG/><o:PixelsPerInch>96</o:PixelsPerInch></o:OfficeDocumentSettings></xml><![endif]-->',
      "Put Word's document settings in the layout's <head>, as Maizzle's starter layout does.",
    ),
  },
  'apple-reformatting-meta': {
    jsx: snippet('jsx', '<Head />', '<Head>\n  <meta name="x-apple-disable-message-reformatting" />\n</Head>', 'Add the meta in React Email Head.'),
    mjml: snippet(
      'mjml',
      '<mj-head>…</mj-head>',
      '<mj-head>\n  <mj-raw><meta name="x-apple-disable-message-reformatting"></mj-raw>\n</mj-head>',
      'Add the meta through mj-raw in mj-head.',
    ),
    maizzle: snippet(
      'maizzle',
      '<head>',
      '<head>\n  <meta name="x-apple-disable-message-reformatting">',
      "Add the meta in the layout's <head>, as Maizzle's starter layout does.",
    ),
  },
  'normalize-important': {
    jsx: snippet(
      'jsx',
      'style={{ color: "#111111!IMPORTANT" }}',
      'style={{ color: "#111111 !important" }}',
      'Write !important in lower case with a space before it.',
    ),
    mjml: snippet(
      'mjml',
      '<mj-style>.a { color: #111111!IMPORTANT }</mj-style>',
      '<mj-style>.a { color: #111111 !important }</mj-style>',
      'Write !important in lower case with a space before it.',
    ),
    maizzle: snippet(
      'maizzle',
      '<p class="text-[#111111!IMPORTANT]">',
      '<p class="!text-[#111111]">',
      "Use Tailwind's ! modifier, which writes a lower-case !important.",
    ),
  },
  'comma-separated-colors': {
    jsx: snippet('jsx', 'style={{ color: "rgb(0 0 0 / 50%)" }}', 'style={{ color: "rgba(0, 0, 0, 0.5)" }}', 'Write colors with commas (or as hex).'),
    mjml: snippet('mjml', '<mj-text color="rgb(0 0 0 / 50%)">', '<mj-text color="rgba(0, 0, 0, 0.5)">', 'Write colors with commas (or as hex).'),
    maizzle: snippet(
      'js',
      '// tailwind.config.js\nmodule.exports = { … }',
      "// tailwind.config.js\nmodule.exports = {\n  presets: [require('tailwindcss-preset-email')],\n}",
      'tailwindcss-preset-email turns off the opacity utilities that write rgb(… / var()) colors.',
    ),
  },
  'six-digit-hex': {
    jsx: snippet('jsx', 'style={{ color: "#fff" }}', 'style={{ color: "#ffffff" }}', 'Write hex colors with six digits.'),
    mjml: snippet('mjml', '<mj-text color="#fff">', '<mj-text color="#ffffff">', 'Write hex colors with six digits.'),
    maizzle: snippet(
      'js',
      '// config.js\nexport default { css: { } }',
      '// config.js\nexport default {\n  css: { sixHex: true },\n}',
      "Maizzle's sixHex transformer writes every hex color with six digits.",
    ),
  },
  'static-css-values': {
    jsx: snippet(
      'jsx',
      'style={{ width: "calc(10px + 5px)", color: "var(--brand)" }}',
      'style={{ width: "15px", color: "#ff0000" }}',
      'Write static values in style objects; keep design tokens in JavaScript constants.',
    ),
    mjml: snippet(
      'mjml',
      '<mj-style>:root { --brand: #ff0000 } .a { color: var(--brand) }</mj-style>',
      '<mj-style>.a { color: #ff0000 }</mj-style>',
      'Write static values in mj-style and in mj-* attributes.',
    ),
    maizzle: snippet(
      'js',
      '// config.js\nexport default { css: { } }',
      '// config.js\nexport default {\n  css: { resolveProps: true, resolveCalc: true },\n}',
      'Maizzle resolves custom properties and calc() at build time.',
    ),
  },
  'safe-class-names': {
    jsx: snippet(
      'jsx',
      '<Column className="sm:w-full">',
      '<Head>\n  <style>{"@media (max-width: 600px) { .sm-w-full { width: 100% !important } }"}</style>\n</Head>\n<Column className="sm-w-full">',
      'Give responsive rules plain class names: Gmail drops a <style> block with an escaped selector.',
    ),
    mjml: snippet(
      'mjml',
      '<mj-column css-class="sm:w-full">',
      '<mj-column css-class="sm-w-full">',
      'Use class names without : / . or brackets in css-class and mj-style.',
    ),
    maizzle: snippet(
      'js',
      '// config.js\nexport default { css: { } }',
      '// config.js\nexport default {\n  css: { safe: true },\n}',
      "Maizzle's safe class names transformer renames sm:w-full to sm-w-full.",
    ),
  },
  'conditional-comment-repair': {
    jsx: snippet(
      'jsx',
      'await render(<Email />, { pretty: true })',
      'await render(<Email />)',
      'Prettified output can break a conditional comment across lines (react-email #1813): render without pretty, or update @react-email/render.',
    ),
    mjml: snippet(
      'mjml',
      '<mj-raw><!-- [if mso]><table><tr><td><![endif]--></mj-raw>',
      '<mj-raw><!--[if mso]><table><tr><td><![endif]--></mj-raw>',
      'Write <!--[if mso]> and <![endif]--> tight, on one line.',
    ),
    maizzle: snippet(
      'maizzle',
      '<!--[if mso\n]><table><tr><td><![endif]-->',
      '<!--[if mso]><table><tr><td><![endif]-->',
      "Write <!--[if mso]> and <![endif]--> tight, on one line (or use Maizzle's <outlook> tag).",
    ),
  },
};

/** Catalog labels whose snippet fits a fix: a font stack, the color-scheme metas, a background fallback. */
const CATALOG_LABEL: Record<string, string> = {
  'generic-font-family': '@font-face',
  'color-scheme-meta': '<meta name="color-scheme">',
  'gradient-fallback-color': 'background-image',
};

/** The fix written in the template's framework; undefined for HTML (the patched email is the fix) or when none fits. */
export function frameworkSnippet(rule: string, format: EmailFormat): CodeFix | undefined {
  // A message's HTML part is HTML: the patched email is the fix.
  if (format === 'html' || format === 'eml') return undefined;
  const own = SNIPPETS[rule]?.[format];
  if (own) return own;
  const label = CATALOG_LABEL[rule];
  return label ? fixFor(label, format, 'outlook-windows-legacy') : undefined;
}
