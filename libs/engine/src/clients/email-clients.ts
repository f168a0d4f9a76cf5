import { CLIENT_IDS, ClientId, EmailClient } from './email-client';
import { darkModelOf, rulesOf } from './models/client-rules';

/** The 21 clients as listed; their dark model and rendering engine come from their models (clients/models/). */
const LISTED_CLIENTS: ReadonlyArray<Omit<EmailClient, 'darkMode' | 'engine' | 'modelCheckedAt'>> = [
  { id: 'gmail-web', name: 'Gmail', category: 'webmail', renderer: 'Gmail web sanitizer', supportSources: ['gmail.desktop-webmail'] },
  { id: 'gmail-android', name: 'Gmail Android', category: 'mobile', renderer: 'Gmail app (Android WebView)', supportSources: ['gmail.android'] },
  { id: 'gmail-ios', name: 'Gmail iOS', category: 'mobile', renderer: 'Gmail app (WebKit)', supportSources: ['gmail.ios'] },
  { id: 'outlook-web', name: 'Outlook.com / 365 web', category: 'webmail', renderer: 'Outlook web sanitizer', supportSources: ['outlook.outlook-com'] },
  {
    id: 'outlook-windows',
    name: 'Outlook (new) for Windows',
    category: 'desktop',
    renderer: 'Outlook web sanitizer (WebView2)',
    supportSources: ['outlook.outlook-com'],
    supportNote: 'The new Outlook for Windows renders with the Outlook.com engine, so it shares its data.',
  },
  { id: 'outlook-windows-legacy', name: 'Outlook Classic (Word engine)', category: 'desktop', renderer: 'Microsoft Word', supportSources: ['outlook.windows'] },
  { id: 'outlook-macos', name: 'Outlook for Mac', category: 'desktop', renderer: 'WebKit', supportSources: ['outlook.macos'] },
  { id: 'outlook-ios', name: 'Outlook iOS', category: 'mobile', renderer: 'WebKit', supportSources: ['outlook.ios'] },
  { id: 'outlook-android', name: 'Outlook Android', category: 'mobile', renderer: 'Android WebView', supportSources: ['outlook.android'] },
  { id: 'apple-mail-macos', name: 'Apple Mail', category: 'desktop', renderer: 'WebKit', supportSources: ['apple-mail.macos'] },
  { id: 'apple-mail-ios', name: 'Apple Mail iOS', category: 'mobile', renderer: 'WebKit', supportSources: ['apple-mail.ios'] },
  { id: 'yahoo-mail', name: 'Yahoo Mail', category: 'webmail', renderer: 'Yahoo web sanitizer', supportSources: ['yahoo.desktop-webmail'] },
  { id: 'yahoo-mail-ios', name: 'Yahoo Mail iOS', category: 'mobile', renderer: 'Yahoo app (WebKit)', supportSources: ['yahoo.ios'] },
  { id: 'yahoo-mail-android', name: 'Yahoo Mail Android', category: 'mobile', renderer: 'Yahoo app (Android WebView)', supportSources: ['yahoo.android'] },
  { id: 'aol', name: 'AOL Mail', category: 'webmail', renderer: 'Yahoo web sanitizer (AOL)', supportSources: ['aol.desktop-webmail'] },
  { id: 'samsung-mail', name: 'Samsung Email', category: 'mobile', renderer: 'Android WebView', supportSources: ['samsung-email.android'] },
  {
    id: 'thunderbird',
    name: 'Thunderbird',
    category: 'desktop',
    renderer: 'Gecko',
    supportSources: ['thunderbird.macos', 'thunderbird.windows'],
    supportNote: 'caniemail tests Thunderbird on macOS and Windows; the worse of the two results counts.',
  },
  { id: 'protonmail', name: 'Proton Mail', category: 'webmail', renderer: 'Proton web sanitizer', supportSources: ['protonmail.desktop-webmail'] },
  { id: 'fastmail', name: 'Fastmail', category: 'webmail', renderer: 'Fastmail web sanitizer', supportSources: ['fastmail.desktop-webmail'] },
  { id: 'hey-mail', name: 'HEY', category: 'webmail', renderer: 'HEY web sanitizer (WebKit/Blink)', supportSources: ['hey.desktop-webmail'] },
  {
    id: 'superhuman',
    name: 'Superhuman',
    category: 'desktop',
    renderer: 'Chromium',
    supportSources: [],
    supportNote: 'caniemail has no Superhuman data; it renders in Chromium, so every tracked feature counts as supported.',
  },
];

/** The 21 clients Mailproof analyzes, in a fixed order (the order of every per-client output). */
export const EMAIL_CLIENTS: readonly EmailClient[] = LISTED_CLIENTS.map((client) => {
  const { model } = rulesOf(client.id);
  return { ...client, engine: model.engine, darkMode: darkModelOf(client.id), modelCheckedAt: model.checkedAt };
});

const CLIENT_BY_ID = new Map<string, EmailClient>(EMAIL_CLIENTS.map((client) => [client.id, client]));

export function isClientId(value: string): value is ClientId {
  return CLIENT_BY_ID.has(value);
}

export function getClient(id: ClientId): EmailClient {
  const client = CLIENT_BY_ID.get(id);
  if (!client) throw new Error(`unknown client id ${id}`);
  return client;
}

/** Position of each client in `CLIENT_IDS`; per-client arrays in the engine use it. */
export const CLIENT_INDEX: Readonly<Record<ClientId, number>> = Object.fromEntries(CLIENT_IDS.map((id, index) => [id, index])) as Record<ClientId, number>;
