import type { MailDeliveryAnswer } from '@allot/domain/mail';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/**
 * GET /api/mail/delivery (public): whether this installation delivers mail (`smtp`) or keeps it in the outbox
 * (`log`, no SMTP_URL). A setting of the server: read once per page load.
 */
export function useMailDelivery() {
  return useQuery({
    queryKey: queryKeys.mail.delivery(),
    queryFn: ({ signal }) => api.get<MailDeliveryAnswer>('/mail/delivery', { auth: false, signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
