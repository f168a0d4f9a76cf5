import type { DeliverabilityResult, DnsCheckName } from './deliverability-result';
import { DNS_CHECK_NAMES } from './deliverability-result';

export type DriftKind =
  'mx_hosts' | 'spf_record' | 'spf_lookups' | 'dkim_validity' | 'dkim_selector' | 'dmarc_policy' | 'dmarc_record' | 'bimi' | 'check_status' | 'score';

export type DriftValue = string | number | boolean | string[] | null;

export interface DriftEvent {
  kind: DriftKind;
  check: DnsCheckName | 'score';
  previous: DriftValue;
  current: DriftValue;
  message: string;
}

type AuditSnapshot = Pick<DeliverabilityResult, 'score' | 'checks' | 'spf' | 'dkim' | 'dmarc' | 'mx' | 'bimi'>;

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}

const show = (value: string) => (value === '' ? '(none)' : value);

/**
 * What changed between two audits of one domain, in a fixed order. A record that either audit
 * could not look up (status skip) is not compared: an outage is not a change. The same holds for
 * part of a record: when an SPF include could not be read in either audit, its lookup count is a
 * lower bound and its status a warning about the outage, so only the record's text is compared.
 * The score is compared only when both audits looked at the same records, each completely.
 */
export function diffAudits(previous: AuditSnapshot, current: AuditSnapshot): DriftEvent[] {
  const events: DriftEvent[] = [];
  const comparable = (check: DnsCheckName) => previous.checks[check].status !== 'skip' && current.checks[check].status !== 'skip';
  // Audits stored before the field existed count as complete (false only ever meant an unread part).
  const spfComplete = previous.spf.lookupsComplete !== false && current.spf.lookupsComplete !== false;
  const statusComparable = (check: DnsCheckName) => comparable(check) && (check !== 'spf' || spfComplete);
  const push = (kind: DriftKind, check: DriftEvent['check'], before: DriftValue, after: DriftValue, message: string) =>
    events.push({ kind, check, previous: before, current: after, message });

  if (comparable('mx') && !sameList(previous.mx.hosts, current.mx.hosts)) {
    push(
      'mx_hosts',
      'mx',
      previous.mx.hosts,
      current.mx.hosts,
      `MX hosts changed from ${show(previous.mx.hosts.join(', '))} to ${show(current.mx.hosts.join(', '))}.`,
    );
  }
  if (comparable('spf')) {
    if (previous.spf.record !== current.spf.record) {
      push(
        'spf_record',
        'spf',
        previous.spf.record,
        current.spf.record,
        `SPF record changed from "${show(previous.spf.record)}" to "${show(current.spf.record)}".`,
      );
    }
    if (spfComplete && previous.spf.lookups !== current.spf.lookups) {
      push('spf_lookups', 'spf', previous.spf.lookups, current.spf.lookups, `SPF now needs ${current.spf.lookups} DNS lookups (was ${previous.spf.lookups}).`);
    }
  }
  if (comparable('dkim')) {
    if (previous.dkim.valid !== current.dkim.valid) {
      push(
        'dkim_validity',
        'dkim',
        previous.dkim.valid,
        current.dkim.valid,
        current.dkim.valid ? 'A valid DKIM key is now published.' : 'No valid DKIM key is published any more.',
      );
    } else if (previous.dkim.selector !== current.dkim.selector) {
      push(
        'dkim_selector',
        'dkim',
        previous.dkim.selector,
        current.dkim.selector,
        `The DKIM selector in use changed from ${show(previous.dkim.selector)} to ${show(current.dkim.selector)}.`,
      );
    }
  }
  if (comparable('dmarc')) {
    if (previous.dmarc.policy !== current.dmarc.policy) {
      push(
        'dmarc_policy',
        'dmarc',
        previous.dmarc.policy,
        current.dmarc.policy,
        `DMARC policy changed from ${show(previous.dmarc.policy)} to ${show(current.dmarc.policy)}.`,
      );
    }
    if (previous.dmarc.record !== current.dmarc.record) {
      push(
        'dmarc_record',
        'dmarc',
        previous.dmarc.record,
        current.dmarc.record,
        `DMARC record changed from "${show(previous.dmarc.record)}" to "${show(current.dmarc.record)}".`,
      );
    }
  }
  if (
    comparable('bimi') &&
    (previous.bimi.valid !== current.bimi.valid ||
      previous.bimi.indicatorUrl !== current.bimi.indicatorUrl ||
      previous.bimi.authorityUrl !== current.bimi.authorityUrl)
  ) {
    push(
      'bimi',
      'bimi',
      previous.bimi.indicatorUrl,
      current.bimi.indicatorUrl,
      `BIMI changed: logo ${show(previous.bimi.indicatorUrl)} → ${show(current.bimi.indicatorUrl)}${current.bimi.valid ? '' : ' (not valid)'}.`,
    );
  }
  for (const check of DNS_CHECK_NAMES) {
    if (statusComparable(check) && previous.checks[check].status !== current.checks[check].status) {
      push(
        'check_status',
        check,
        previous.checks[check].status,
        current.checks[check].status,
        `${check.toUpperCase()} went from ${previous.checks[check].status} to ${current.checks[check].status}: ${current.checks[check].message}`,
      );
    }
  }
  const sameScope = spfComplete && DNS_CHECK_NAMES.every((check) => (previous.checks[check].status === 'skip') === (current.checks[check].status === 'skip'));
  if (sameScope && previous.score !== current.score) {
    push('score', 'score', previous.score, current.score, `DNS health score changed from ${previous.score} to ${current.score}.`);
  }
  return events;
}
