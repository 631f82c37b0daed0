import { LICENSE_TYPE_LABEL, type LicenseType } from '@allot/domain/organizations';
import { describeRequest, type RequestKind, type UpTreeRequest } from '@allot/domain/requests';
import { formatCount, formatCountOf } from '../../../lib/format';

/** "300 credits", "1 credit", "3 Chorus seats", "1 Chorus seat". */
export function amountText(kind: RequestKind, amount: number, licenseType: LicenseType | null): string {
  if (kind === 'credits') return formatCountOf(amount, 'credit', 'credits');
  const label = licenseType ? `${LICENSE_TYPE_LABEL[licenseType]} ` : '';
  return formatCountOf(amount, `${label}seat`, `${label}seats`);
}

/** What a request asks for, as its mails and audit entries say it: "300 credits (shared pool)", "3 Chorus seats". */
export function askedText(request: Pick<UpTreeRequest, 'kind' | 'amount' | 'pool' | 'licenseType'>): string {
  return describeRequest(request, request.amount);
}

/**
 * What was decided, beyond the status badge: what an approval gave when it gave less than asked ("200 of
 * 300 credits given"), else nothing (the badge says it all; a decline's reason is shown on its own).
 */
export function decisionText(request: Pick<UpTreeRequest, 'status' | 'amount' | 'approvedAmount'>) {
  if (request.status !== 'approved' || request.approvedAmount === null) return null;
  if (request.approvedAmount >= request.amount) return 'Given in full';
  return `${formatCount(request.approvedAmount)} of ${formatCount(request.amount)} given`;
}

/** The verb of a decision, for "Approved by Adam Reyes": by whom and when the status last changed. */
export const DECIDED_VERB = {
  approved: 'Approved',
  declined: 'Declined',
  cancelled: 'Cancelled',
} as const;
