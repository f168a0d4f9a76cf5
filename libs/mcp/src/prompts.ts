/**
 * Prompts for the common tasks: each is a user message that asks the assistant to use the tools. Their
 * arguments are strings (MCP prompt arguments are); client lists are comma-separated ids.
 */
import { CLIENT_IDS, isClientId } from '@mailproof/engine';

export interface PromptArgument {
  name: string;
  description: string;
  required: boolean;
}

export interface PromptDefinition {
  name: string;
  title: string;
  description: string;
  arguments: PromptArgument[];
  /** The user message, from arguments already checked against `arguments`. */
  message(args: Record<string, string>): string;
}

/** An argument that is wrong (not missing: the server checks presence): the message names the fix. */
export class PromptArgumentError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

function clientList(raw: string | undefined, field: string): string[] | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const ids = raw
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
  const unknown = ids.filter((id) => !isClientId(id));
  if (unknown.length > 0) throw new PromptArgumentError(field, `unknown client id(s): ${unknown.join(', ')}; valid ids: ${CLIENT_IDS.join(', ')}`);
  return ids;
}

function fenced(source: string): string {
  const fence = source.includes('```') ? '~~~~' : '```';
  return `${fence}\n${source}\n${fence}`;
}

const FORMAT_ARGUMENT: PromptArgument = { name: 'format', description: 'html (default), jsx, mjml or maizzle', required: false };

export const PROMPTS: readonly PromptDefinition[] = [
  {
    name: 'analyze-email',
    title: 'Analyze an email',
    description: 'Check an email for rendering problems across email clients and explain what to fix first.',
    arguments: [
      { name: 'html', description: 'The email markup (HTML, JSX, MJML or Maizzle)', required: true },
      FORMAT_ARGUMENT,
      { name: 'clients', description: 'Comma-separated client ids to focus on (default: all 21)', required: false },
    ],
    message(args) {
      const clients = clientList(args.clients, 'clients');
      return [
        `Analyze this email with the Mailproof analyze_email tool${args.format ? ` (format "${args.format}")` : ''}${clients ? ` for the clients ${clients.join(', ')}` : ''}.`,
        'Then summarize: the overall score, the worst clients, and the errors and warnings grouped by problem, most widespread first, each with the fix to make.',
        'Call audit_email as well if spam, links, accessibility or size could matter.',
        '',
        fenced(args.html),
      ].join('\n');
    },
  },
  {
    name: 'fix-email',
    title: 'Fix an email for a set of clients',
    description: 'Apply the deterministic fixes with fix_email, fix what remains by hand for the given clients, and prove it with diff_emails.',
    arguments: [
      { name: 'html', description: 'The email markup (HTML, JSX, MJML or Maizzle)', required: true },
      { name: 'clients', description: 'Comma-separated client ids the email must work in, e.g. outlook-windows-legacy,gmail-web', required: true },
      FORMAT_ARGUMENT,
    ],
    message(args) {
      const clients = clientList(args.clients, 'clients') ?? [];
      if (clients.length === 0) throw new PromptArgumentError('clients', 'give at least one client id');
      return [
        `Make this email render correctly in ${clients.join(', ')}${args.format ? ` (format "${args.format}"; keep that format)` : ''}.`,
        `1. Call fix_email with clients ${JSON.stringify(clients)}: it applies the safe fixes, each proven by analysis. For a template it patches the compiled HTML (its note says so): make the same changes in the template.`,
        '2. Call analyze_email on the result with detail "full" and the same clients.',
        '3. Fix every error that remains, then the warnings, using the fix snippets; change nothing else about the design.',
        '4. Call diff_emails with the original as before and your version as after, for the same clients, and check that nothing was introduced.',
        "5. Reply with the fixed email and a short list of what changed (fix_email's applied fixes and yours), with the score before and after per client.",
        '',
        fenced(args.html),
      ].join('\n');
    },
  },
  {
    name: 'check-domain',
    title: 'Check a sending domain',
    description: "Audit a domain's SPF, DKIM, DMARC, MX and BIMI records and explain what to change.",
    arguments: [
      { name: 'domain', description: 'The sending domain, e.g. example.com', required: true },
      { name: 'dkimSelectors', description: 'Comma-separated DKIM selectors your provider uses (optional)', required: false },
    ],
    message(args) {
      const selectors = (args.dkimSelectors ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      return [
        `Audit the sending domain ${args.domain} with the Mailproof check_deliverability tool${selectors.length > 0 ? ` (dkimSelectors ${JSON.stringify(selectors)})` : ''}.`,
        'Explain the score, then each record that does not pass: what is wrong and the exact DNS record to publish instead.',
        'If the domain is among list_domains, say whether its monitoring shows recent drift.',
      ].join('\n');
    },
  },
];
