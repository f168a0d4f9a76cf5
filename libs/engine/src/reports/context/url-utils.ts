/** Classifying hrefs without any network access. */

export type HrefScheme =
  'https' | 'http' | 'mailto' | 'tel' | 'sms' | 'anchor' | 'javascript' | 'protocol-relative' | 'relative' | 'template' | 'data' | 'file' | 'other' | 'empty';

export interface ClassifiedHref {
  scheme: HrefScheme;
  /** Lower-cased host of http(s) and protocol-relative links. */
  host: string | null;
  url: URL | null;
  /** The href could not be parsed as the URL it claims to be. */
  malformed: boolean;
}

const TEMPLATE_MARKERS = ['{{', '{%', '*|', '%%', '<%', '[[', '${', '&lt;%'];
/** Whole-href ESP placeholders such as [unsubscribe], %unsubscribe_url%, {unsubscribe}, $unsubscribe$. */
const BARE_PLACEHOLDER = /^(?:\[[A-Za-z_][\w:.-]{0,60}\]|%[A-Za-z_][\w.-]{0,60}%|\{[A-Za-z_][\w.-]{0,60}\}|\$[A-Za-z_][\w.-]{0,60}\$)$/;

/** Whether the href is (or contains) merge-tag syntax an ESP resolves at send time. */
export function isTemplateHref(href: string): boolean {
  const trimmed = href.trim();
  if (TEMPLATE_MARKERS.some((marker) => trimmed.includes(marker))) return true;
  return BARE_PLACEHOLDER.test(trimmed);
}

function schemeOf(href: string): string | null {
  // A scheme is letters, digits, + - . before the first ':' and before any '/', '?' or '#'.
  for (let i = 0; i < href.length && i < 40; i++) {
    const char = href[i];
    if (char === ':') return i > 0 ? href.slice(0, i).toLowerCase() : null;
    if (!/[A-Za-z0-9+.-]/.test(char)) return null;
  }
  return null;
}

export function classifyHref(raw: string): ClassifiedHref {
  const href = raw.trim();
  const none = { host: null, url: null, malformed: false };
  if (href.length === 0) return { scheme: 'empty', ...none };
  if (isTemplateHref(href)) return { scheme: 'template', ...none };
  if (href.startsWith('#')) return { scheme: 'anchor', ...none };
  if (href.startsWith('//')) {
    try {
      const url = new URL(`https:${href}`);
      return { scheme: 'protocol-relative', host: url.hostname.toLowerCase(), url, malformed: false };
    } catch {
      return { scheme: 'protocol-relative', host: null, url: null, malformed: true };
    }
  }
  const scheme = schemeOf(href);
  if (scheme === null) return { scheme: 'relative', ...none };
  switch (scheme) {
    case 'http':
    case 'https': {
      // "http:/x", "https:example.com" parse leniently in WHATWG URL but break in mail clients.
      const afterScheme = href.slice(scheme.length + 1);
      if (!afterScheme.startsWith('//')) return { scheme, host: null, url: null, malformed: true };
      try {
        const url = new URL(href);
        const host = url.hostname.toLowerCase();
        const malformed = host.length === 0 || /\s/.test(href) || (!host.includes('.') && host !== 'localhost' && !host.startsWith('['));
        return { scheme, host, url, malformed };
      } catch {
        return { scheme, host: null, url: null, malformed: true };
      }
    }
    case 'mailto':
      return { scheme: 'mailto', ...none };
    case 'tel':
    case 'callto':
      return { scheme: 'tel', ...none };
    case 'sms':
      return { scheme: 'sms', ...none };
    case 'javascript':
    case 'vbscript':
      return { scheme: 'javascript', ...none };
    case 'data':
      return { scheme: 'data', ...none };
    case 'file':
      return { scheme: 'file', ...none };
    default:
      return { scheme: 'other', ...none };
  }
}

/** IPv4 or IPv6 literal hosts (WHATWG URL has already normalized 0x7f.1 and 2130706433 forms). */
export function isIpHost(host: string): boolean {
  if (host.startsWith('[')) return true;
  const parts = host.split('.');
  return parts.length === 4 && parts.every((part) => /^\d{1,3}$/.test(part) && Number(part) <= 255);
}

const SECOND_LEVEL_LABELS = new Set(['co', 'com', 'org', 'net', 'ac', 'gov', 'edu', 'ne', 'or', 'go', 'gob', 'mil', 'nic']);

/**
 * The registrable domain, approximately: the last two labels, or three under a country code's generic
 * second level (example.co.uk, example.com.au). Good enough to tell "shows one site, goes to another".
 */
export function registrableDomain(host: string): string {
  const labels = host.replace(/\.$/, '').toLowerCase().split('.');
  if (labels.length <= 2 || isIpHost(host)) return labels.join('.');
  const tld = labels[labels.length - 1];
  const second = labels[labels.length - 2];
  if (tld.length === 2 && SECOND_LEVEL_LABELS.has(second)) return labels.slice(-3).join('.');
  return labels.slice(-2).join('.');
}

export function hostMatches(host: string, domains: ReadonlySet<string>): boolean {
  const labels = host.split('.');
  for (let i = 0; i < labels.length - 1; i++) if (domains.has(labels.slice(i).join('.'))) return true;
  return false;
}

export const URL_SHORTENERS: ReadonlySet<string> = new Set([
  'bit.ly',
  'bitly.com',
  'tinyurl.com',
  't.co',
  'goo.gl',
  'ow.ly',
  'is.gd',
  'buff.ly',
  'rebrand.ly',
  'cutt.ly',
  'shorturl.at',
  'rb.gy',
  't.ly',
  'tiny.cc',
  'bl.ink',
  'short.io',
  'shorte.st',
  's.id',
  'v.gd',
  'lnkd.in',
  'trib.al',
  'qr.ae',
  'adf.ly',
  'bc.vc',
  'soo.gd',
  'x.co',
  'su.pr',
  'clck.ru',
  'u.to',
  'tiny.one',
  'shorturl.com',
  'rotf.lol',
  'hyperurl.co',
  'urlz.fr',
  'snip.ly',
  'dub.sh',
  'kutt.it',
  'shrtco.de',
  '1url.com',
  'mcaf.ee',
  'db.tt',
  'fb.me',
]);

/** Click-tracking and ESP redirect domains: links through them are tracked. */
export const TRACKING_DOMAINS: ReadonlySet<string> = new Set([
  'list-manage.com',
  'mailchi.mp',
  'sendgrid.net',
  'mandrillapp.com',
  'mailgun.org',
  'mailgun.net',
  'hubspotlinks.com',
  'hs-sites.com',
  'hubspotemail.net',
  'rs6.net',
  'aweber.com',
  'klclick.com',
  'klclick1.com',
  'klclick2.com',
  'klclick3.com',
  'convertkit-mail.com',
  'convertkit-mail2.com',
  'ck.page',
  'mlsend.com',
  'mailerlite.com',
  'createsend1.com',
  'createsend.com',
  'cmail19.com',
  'cmail20.com',
  'exct.net',
  'sendibt2.com',
  'sendibt3.com',
  'sendibm1.com',
  'brevo.com',
  'awstrack.me',
  'mjt.lu',
  'customeriomail.com',
  'sparkpostmail.com',
  'pstmrk.it',
  'ctrk.klclick.com',
  'emlnk.com',
  'substack.com',
  'beehiiv.com',
  'mailjet.com',
  'salesforce.com',
  'marketo.com',
  'mktoweb.com',
  'eloqua.com',
  'en25.com',
  'acemlna.com',
  'acemlnb.com',
  'acemlnc.com',
  'activehosted.com',
  'getresponse.com',
  'gr8.com',
  'omnisend.com',
  'omnisnippet1.com',
  'iterable.com',
  'links.iterable.com',
  'braze.com',
  'postmarkapp.com',
  'mcsv.net',
  'mailchimp.com',
  'sg-links.com',
  'sendinblue.com',
  'ablink.net',
]);

const TRACKING_SUBDOMAIN_PREFIXES = ['click.', 'clicks.', 'links.', 'link.', 'track.', 'trk.', 'tracking.', 'ct.', 'email.mg.'];

/** Query parameters campaign analytics adds. */
const TRACKING_PARAMETERS = new Set([
  'mc_cid',
  'mc_eid',
  '_hsenc',
  '_hsmi',
  'mkt_tok',
  'trk',
  'cmpid',
  's_cid',
  'cid',
  'campaign',
  'campaign_id',
  'gclid',
  'fbclid',
  'dclid',
  'mtm_campaign',
  'pk_campaign',
  'piwik_campaign',
  'ef_id',
  'sc_cid',
  'ito',
  'emci',
  'emdi',
  'ceid',
  'et_rid',
  'sfmc_id',
  'ecid',
  'vero_id',
  '_kx',
  'klaviyo_id',
  'oly_enc_id',
  'wt.mc_id',
  'icid',
  'mkwid',
  'ml_subscriber',
  'ml_subscriber_hash',
  'cm_mmc',
  'ss_source',
  'bm_cid',
]);

/** Whether a link carries campaign parameters or goes through a click-tracking host. */
export function isTrackedUrl(url: URL): boolean {
  const host = url.hostname.toLowerCase();
  if (hostMatches(host, TRACKING_DOMAINS)) return true;
  if (TRACKING_SUBDOMAIN_PREFIXES.some((prefix) => host.startsWith(prefix) && host.split('.').length > 2)) return true;
  // SendGrid's branded click links look like url1234.example.com.
  if (/^url\d{2,8}\./.test(host)) return true;
  for (const key of url.searchParams.keys()) {
    const lower = key.toLowerCase();
    if (lower.startsWith('utm_') || TRACKING_PARAMETERS.has(lower)) return true;
  }
  return false;
}
