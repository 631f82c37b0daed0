import { MSG } from '@allot/domain/messages';
import { PICKER_PAGE_SIZE } from '@allot/domain/pagination';
import { Card, EmptyState, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconSearchOff } from '@tabler/icons-react';
import { LoadError } from '../../components/load-error';
import { PagedSection } from '../../components/paged-section';
import { useSearchOrganizations } from '../../features/organizations/api/search-organizations';
import {
  OrganizationGrid,
  OrganizationGridSkeleton,
} from '../../features/organizations/components/organization-grid';
import { useSearchUsers } from '../../features/users/api/search-users';
import { UserSearchResults } from '../../features/users/components/user-search-results';
import { pageParam, readPage } from '../../lib/list-params';
import { formatTotal, knownPages, type ListTotals } from '../../lib/paging';
import { useListUrl } from '../../lib/use-list-url';

/** The position of the last result shown: past the cap, what the page shows says more than the cap does. */
const shownUpTo = (answer: { data: unknown[]; pagination: ListTotals & { limit: number } }) =>
  (answer.pagination.page - 1) * answer.pagination.limit + answer.data.length;

function SectionTitle({
  id,
  title,
  total,
  busy,
}: {
  id: string;
  title: string;
  /** "1,234 found", or "1,000+ found" for a capped total. */
  total?: string;
  busy: boolean;
}) {
  return (
    <Group gap="xs" align="center">
      <Title order={2} fz="h4" id={id}>
        {title}
      </Title>
      {total !== undefined && (
        <Text size="sm" c="dimmed">
          {total} found
        </Text>
      )}
      {busy && <Loader size="xs" aria-label={`Searching ${title.toLowerCase()}`} />}
    </Group>
  );
}

/** Home's URL parameters (decision 019): `?q=gar&orgPage=2&userPage=3`, defaults left out. */
export const SEARCH_PARAM = 'q';
const ORG_PAGE_PARAM = 'orgPage';
const USER_PAGE_PARAM = 'userPage';
export const RESULT_PAGE_PARAMS = [ORG_PAGE_PARAM, USER_PAGE_PARAM] as const;

/** What the Home search found: organizations (GET /api/organization/search) and users (GET /api/user/search). */
export function SearchResults({ search }: { search: string }) {
  // The pages are in the URL, each list its own; a new search text (useUrlSearch) removes both.
  const { params, write } = useListUrl();
  const orgPage = readPage(params, ORG_PAGE_PARAM);
  const userPage = readPage(params, USER_PAGE_PARAM);
  const setOrgPage = (page: number) => write(pageParam(ORG_PAGE_PARAM, page), 'push');
  const setUserPage = (page: number) => write(pageParam(USER_PAGE_PARAM, page), 'push');
  const organizations = useSearchOrganizations({
    page: orgPage,
    limit: PICKER_PAGE_SIZE,
    search,
    key: 'name',
    order: 'asc',
  });
  const users = useSearchUsers({ page: userPage, limit: PICKER_PAGE_SIZE, search });

  const orgTotal = organizations.data?.pagination.total;
  const userTotal = users.data?.pagination.total;
  // While the answer to a new search is on its way, the previous results stay, dimmed.
  const stale = organizations.isPlaceholderData || users.isPlaceholderData;
  if (orgTotal === 0 && userTotal === 0 && !stale) {
    return (
      <Card py="xl">
        <EmptyState icon={<IconSearchOff />} title={MSG.noSearchResults} variant="light" />
      </Card>
    );
  }

  return (
    <Stack gap="xl" aria-busy={stale} style={{ opacity: stale ? 0.6 : 1, transition: 'opacity 150ms' }}>
      {orgTotal === 0 && (
        <Text size="sm" c="dimmed">
          No organizations match “{search}”.
        </Text>
      )}
      {orgTotal !== 0 && (
        <Stack gap="sm" component="section" aria-labelledby="found-organizations">
          <SectionTitle
            id="found-organizations"
            title="Organizations"
            total={
              organizations.data && formatTotal(organizations.data.pagination, shownUpTo(organizations.data))
            }
            busy={organizations.isFetching}
          />
          {organizations.isPending && <OrganizationGridSkeleton label="Searching organizations" />}
          {organizations.isError && (
            <LoadError
              title="Organizations could not be searched"
              error={organizations.error}
              onRetry={() => void organizations.refetch()}
              retrying={organizations.isRefetching}
            />
          )}
          {organizations.data && (
            <PagedSection
              page={orgPage}
              total={knownPages(organizations.data.pagination)}
              onChange={setOrgPage}
              label="Organization results pages"
            >
              <OrganizationGrid organizations={organizations.data.data} withPath />
            </PagedSection>
          )}
        </Stack>
      )}
      {userTotal === 0 && (
        <Text size="sm" c="dimmed">
          No users match “{search}”.
        </Text>
      )}
      {userTotal !== 0 && (
        <Stack gap="sm" component="section" aria-labelledby="found-users">
          <SectionTitle
            id="found-users"
            title="Users"
            total={users.data && formatTotal(users.data.pagination, shownUpTo(users.data))}
            busy={users.isFetching}
          />
          {users.isPending && (
            <Text size="sm" c="dimmed">
              Searching users…
            </Text>
          )}
          {users.isError && (
            <LoadError
              title="Users could not be searched"
              error={users.error}
              onRetry={() => void users.refetch()}
              retrying={users.isRefetching}
            />
          )}
          {users.data && (
            <PagedSection
              page={userPage}
              total={knownPages(users.data.pagination)}
              onChange={setUserPage}
              label="User results pages"
            >
              <UserSearchResults users={users.data.data} />
            </PagedSection>
          )}
        </Stack>
      )}
    </Stack>
  );
}
