import type { Evidence, RewriteBehavior } from './client-behavior';

/** Attributes only a `<body>` reads: once a client turns it into a `<div>`, they paint nothing. */
const BODY_ONLY_ATTRIBUTES = ['bgcolor', 'background', 'text', 'link', 'vlink', 'alink', 'leftmargin', 'topmargin', 'marginwidth', 'marginheight'];

/**
 * A webmail that replaces the email's `<body>` with a `<div>` of its own page (Gmail, Yahoo, Proton): the
 * body's presentational attributes stop working, so its background color is lost. Modelled by removing them.
 */
export function bodyToDiv(id: string, clientName: string, evidence: readonly Evidence[]): RewriteBehavior {
  return {
    id,
    kind: 'rewrite',
    severity: 'warning',
    label: '<body> attributes',
    summary: `${clientName} replaces <body> with a <div>: bgcolor, background, text and link colors on <body> no longer apply.`,
    evidence,
    dropsAttributesOn: ['body'],
    dropsAttributes: (element) =>
      element.tagName === 'body' ? element.attrs.filter((a) => !a.prefix && BODY_ONLY_ATTRIBUTES.includes(a.name)).map((a) => a.name) : [],
    suggestion: 'Repeat the body background on a full-width wrapper table (bgcolor and background-color), as email frameworks do.',
    fixture: {
      html: '<html><body bgcolor="#ffe000" text="#333333"><table width="100%" bgcolor="#ffe000"><tr><td>x</td></tr></table></body></html>',
      expect: { transformIncludes: ['<body>', '<table width="100%" bgcolor="#ffe000"'], finding: { rule: id } },
    },
  };
}
