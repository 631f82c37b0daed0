import type { MailOutboxPage } from '@allot/domain/mail';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/mail/outbox (system admins): the mail sent or kept, and whether mail goes out at all. */
export function useMailOutbox(page: number, limit: number, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.mail.outbox(page, limit),
    queryFn: ({ signal }) => api.get<MailOutboxPage>('/mail/outbox', { query: { page, limit }, signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}
