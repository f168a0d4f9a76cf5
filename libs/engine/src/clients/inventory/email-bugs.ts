import type { ClientId } from '../email-client';
import type { InventoryDecision } from './inventory-types';

/**
 * The hteumeuleu/email-bugs issues read for the inventory (docs/clients.md, "Behaviour inventory"): one entry
 * per issue that concerns one of our clients, with its state and the date of its last activity we read, the
 * title in our words, and the decision for each client it concerns (`byClient` overrides `decision`).
 * The set is the issues the models cite plus those found by searching the tracker per client; it is not the
 * whole tracker (docs/clients.md says so).
 */
export interface EmailBugsIssue {
  issue: number;
  title: string;
  state: 'open' | 'closed';
  /** The date of the last activity we read; empty when the copy we read showed none. */
  date: string;
  clients: readonly ClientId[];
  decision: InventoryDecision;
  byClient?: Partial<Record<ClientId, InventoryDecision>>;
}

const READ = '2026-12-07';
const modeled = (behavior: string): InventoryDecision => ({ state: 'modeled', behavior });
const superseded = (why: string): InventoryDecision => ({ state: 'not-modeled', reason: 'superseded', why, date: READ });
const gap = (why: string): InventoryDecision => ({ state: 'not-modeled', reason: 'gap', why, date: READ });
const disputed = (why: string): InventoryDecision => ({ state: 'not-modeled', reason: 'disputed', why, date: READ });

const GMAIL: readonly ClientId[] = ['gmail-web', 'gmail-android', 'gmail-ios'];
const YAHOO: readonly ClientId[] = ['yahoo-mail', 'yahoo-mail-ios', 'yahoo-mail-android', 'aol'];
const OWA: readonly ClientId[] = ['outlook-web', 'outlook-windows'];
const APPLE: readonly ClientId[] = ['apple-mail-macos', 'apple-mail-ios'];

export const EMAIL_BUGS_ISSUES: readonly EmailBugsIssue[] = [
  {
    issue: 4,
    title: 'The old Outlook.com on mobile scoped rules under a class no wrapper carried',
    state: 'closed',
    date: '2019-08-27',
    clients: OWA,
    decision: superseded('the maintainer closed it in 2018: only the retired Outlook.com had it'),
  },
  {
    issue: 9,
    title: 'Yahoo renames height to min-height',
    state: 'open',
    date: '2020-06-18',
    clients: YAHOO,
    decision: modeled('yahoo-height-to-min-height'),
    byClient: { 'yahoo-mail-ios': disputed('a 2020 comment says the iOS app stopped; the model leaves it out there') },
  },
  {
    issue: 11,
    title: 'The old Outlook.com showed a blank email for an emoji in <style>',
    state: 'closed',
    date: '2016-03-16',
    clients: OWA,
    decision: superseded('the maintainer found it only in the retired Outlook.com'),
  },
  {
    issue: 13,
    title: 'Gmail drops a <style> block or a style attribute with !important in uppercase',
    state: 'open',
    date: '2018-01-30',
    clients: GMAIL,
    decision: modeled('gmail-uppercase-important'),
  },
  {
    issue: 16,
    title: 'Yahoo drops !important after a space on display',
    state: 'open',
    date: '2019-02-18',
    clients: YAHOO,
    decision: modeled('yahoo-spaced-important-display'),
    byClient: { 'yahoo-mail-android': disputed('the report covers the webmail and iOS; caniemail describes another spelling') },
  },
  {
    issue: 19,
    title: 'Outlook.com empties a style attribute that holds a character its filter rejects',
    state: 'open',
    date: '2016-07-20',
    clients: OWA,
    decision: modeled('owa-invalid-character-attribute'),
  },
  {
    issue: 23,
    title: 'Outlook.com served to IE9 does not scope tag selectors',
    state: 'open',
    date: '2016-11-16',
    clients: OWA,
    decision: superseded('only the version served to Internet Explorer 9, which Outlook.com no longer supports'),
  },
  {
    issue: 25,
    title: 'Yahoo ignores the rule after a CSS comment',
    state: 'closed',
    date: '2021-02-25',
    clients: YAHOO,
    decision: superseded('closed; caniemail (2024) finds comments supported in Yahoo'),
  },
  {
    issue: 31,
    title: 'Outlook on Windows drops a font-family with !important and no space',
    state: 'open',
    date: '2018-01-09',
    clients: ['outlook-windows-legacy'],
    decision: modeled('word-important-without-space'),
  },
  {
    issue: 38,
    title: 'Outlook.com filters attribute selectors wrongly ([owa] .foo becomes .foo)',
    state: 'open',
    date: '2018-04-16',
    clients: OWA,
    decision: modeled('owa-class-id-prefix'),
  },
  {
    issue: 56,
    title: 'Gmail drops <style> in the clipped view of a long email',
    state: 'open',
    date: '',
    clients: GMAIL,
    decision: {
      state: 'not-modeled',
      reason: 'user-setting',
      why: 'only in the "View entire message" page a reader opens on a clipped email',
      date: READ,
    },
  },
  {
    issue: 57,
    title: 'Gmail for iOS and Android do not always show emails at full width',
    state: 'open',
    date: '2021-08-18',
    clients: ['gmail-android', 'gmail-ios'],
    decision: gap('an app layout rule around the email; no hook for client-added layout yet'),
  },
  {
    issue: 58,
    title: 'AOL Mail uses the Yahoo engine (since July 2018)',
    state: 'closed',
    date: '2018-07',
    clients: ['aol'],
    decision: modeled('yahoo-class-prefix'),
  },
  {
    issue: 61,
    title: 'Outlook.com prefixes only the first class of a chained selector',
    state: 'open',
    date: '2019-07-02',
    clients: OWA,
    decision: modeled('owa-class-id-prefix'),
  },
  {
    issue: 65,
    title: 'Apple Mail ignores background-color #ffffff in dark-mode rules',
    state: 'open',
    date: '2019-10-15',
    clients: APPLE,
    decision: modeled('apple-dark-ignores-pure-white'),
  },
  {
    issue: 68,
    title: "Gmail's apps recolor emails in dark mode (dark emails lightened, images altered)",
    state: 'open',
    date: '2019-11-06',
    clients: ['gmail-android', 'gmail-ios'],
    decision: modeled('gmail-android-dark'),
    byClient: { 'gmail-ios': modeled('gmail-ios-dark') },
  },
  {
    issue: 69,
    title: 'Apple Mail on iOS 13 adds side padding on some devices',
    state: 'open',
    date: '',
    clients: ['apple-mail-ios'],
    decision: gap('an app layout rule around the email; no hook for client-added layout yet'),
  },
  {
    issue: 75,
    title: 'Outlook on Windows reads only the first class of an element',
    state: 'open',
    date: '2020-01-20',
    clients: ['outlook-windows-legacy'],
    decision: modeled('word-first-class-only'),
  },
  {
    issue: 90,
    title: 'Gmail drops the styles of an email past 16 KB of <style>',
    state: 'open',
    date: '2021-03-02',
    clients: GMAIL,
    decision: modeled('gmail-style-size-limit'),
  },
  {
    issue: 92,
    title: 'Outlook.com and the Outlook apps drop the styles after two closing braces',
    state: 'open',
    date: '2021-06-11',
    clients: [...OWA, 'outlook-ios', 'outlook-android'],
    decision: modeled('owa-double-brace'),
  },
  {
    issue: 104,
    title: 'Apple Mail needs a color-scheme declaration for dark-mode rules',
    state: 'open',
    date: '2023-09-19',
    clients: APPLE,
    decision: modeled('apple-dark-color-scheme'),
  },
  {
    issue: 112,
    title: 'Outlook for iOS adds display:table !important to every table',
    state: 'closed',
    date: '2022-03-14',
    clients: ['outlook-ios'],
    decision: disputed('closed without a stated fix; not reproduced since, so not modeled'),
  },
  {
    issue: 139,
    title: 'Yahoo iOS dark mode puts a white backing behind transparent PNGs',
    state: 'open',
    date: '2024-05-22',
    clients: ['yahoo-mail-ios', 'yahoo-mail-android'],
    decision: modeled('yahoo-app-dark'),
  },
  {
    issue: 141,
    title: 'Outlook.com dropped <style> in <head> (rolled back on desktop; seen again on the mobile web in 2025)',
    state: 'closed',
    date: '2025-01-14',
    clients: OWA,
    decision: disputed('closed as rolled back in 2024; a 2025 comment sees it on the mobile web only, which Mailproof does not model'),
  },
  {
    issue: 147,
    title: 'Outlook for iOS and Android ignore the CSS after a @media closed without a space',
    state: 'open',
    date: '2025-06-25',
    clients: ['outlook-ios', 'outlook-android'],
    decision: modeled('owa-double-brace'),
  },
  {
    issue: 149,
    title: 'Yahoo breaks media queries that list conditions with commas',
    state: 'open',
    date: '2025-08-19',
    clients: YAHOO,
    decision: modeled('yahoo-media-query-list'),
  },
  {
    issue: 157,
    title: 'Yahoo and AOL remove class from images',
    state: 'open',
    date: '2025',
    clients: YAHOO,
    decision: modeled('yahoo-image-class-removed'),
  },
  {
    issue: 160,
    title: 'Gmail drops styles with a space-separated color',
    state: 'open',
    date: '2025-12-18',
    clients: GMAIL,
    decision: modeled('gmail-space-separated-rgb'),
  },
];
