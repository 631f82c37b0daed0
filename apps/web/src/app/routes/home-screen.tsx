import type { Organization } from '@allot/domain/organizations';
import { PICKER_PAGE_SIZE } from '@allot/domain/pagination';
import { Button, Card, Container, EmptyState, Group, Stack, Text, Title } from '@mantine/core';
import { useDisclosure, useDocumentTitle } from '@mantine/hooks';
import { IconBuildingCommunity, IconPlus } from '@tabler/icons-react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { LoadError } from '../../components/load-error';
import { PagedSection } from '../../components/paged-section';
import { SearchInput } from '../../components/search-input';
import { useOrganizations } from '../../features/organizations/api/get-organizations';
import { CreateOrganizationModal } from '../../features/organizations/components/create-organization-modal';
import {
  OrganizationGrid,
  OrganizationGridSkeleton,
} from '../../features/organizations/components/organization-grid';
import { askedForPicker } from '../../lib/home-link';
import { pageParam, readPage } from '../../lib/list-params';
import { SEARCH_HINT } from '../../lib/search-hints';
import { useSession } from '../../lib/session';
import { useListUrl, useUrlSearch } from '../../lib/use-list-url';
import { RESULT_PAGE_PARAMS, SEARCH_PARAM, SearchResults } from './search-results';

const PICKER_PAGE_PARAM = 'page';

/** The caller's own organizations (GET /api/organization), paged here by 12; the page is in the URL. */
function MyOrganizations({ systemAdmin }: { systemAdmin: boolean }) {
  const { data, isPending, isError, error, refetch, isRefetching } = useOrganizations();
  const { params, write } = useListUrl();
  const page = readPage(params, PICKER_PAGE_PARAM);
  const setPage = (next: number) => write(pageParam(PICKER_PAGE_PARAM, next), 'push');

  if (isPending) return <OrganizationGridSkeleton />;
  if (isError) {
    return (
      <LoadError
        title="Organizations could not be loaded"
        error={error}
        onRetry={() => void refetch()}
        retrying={isRefetching}
      />
    );
  }
  if (data.length === 0) {
    return (
      <Card py="xl">
        <EmptyState
          icon={<IconBuildingCommunity />}
          title="No organizations yet"
          description={
            // A system admin sees every organization: none exists yet, and they are the one to add it.
            systemAdmin
              ? 'There is no organization yet. Add the first one with "Add organization" above.'
              : 'You do not hold a role in any organization. Ask the owner of your organization to add you as an admin.'
          }
          variant="light"
        />
      </Card>
    );
  }
  const totalPages = Math.ceil(data.length / PICKER_PAGE_SIZE);
  const current = Math.min(page, totalPages);
  const shown = data.slice((current - 1) * PICKER_PAGE_SIZE, current * PICKER_PAGE_SIZE);
  return (
    <PagedSection page={current} total={totalPages} onChange={setPage} label="Organizations pages">
      <OrganizationGrid organizations={shown} />
    </PagedSection>
  );
}

/**
 * The organization picker (spec §2 Home): the caller's organizations, a search over organizations
 * and users, and "Add organization".
 */
export function HomeScreen() {
  useDocumentTitle('Organizations · Allot');
  const location = useLocation();
  const navigate = useNavigate();
  const session = useSession();
  const { data } = useOrganizations();
  // The search and the pages of its two lists live in the URL (decision 019).
  const { search, setSearch, inUrl: searched } = useUrlSearch(SEARCH_PARAM, RESULT_PAGE_PARAMS);
  const [adding, { open: openAdd, close: closeAdd }] = useDisclosure(false);

  // One organization: straight into it (spec §4), unless the person came here for the picker or with a
  // search in the address (a reload of a search kept it: issue 33).
  const only = data?.length === 1 ? data[0] : undefined;
  if (only && !askedForPicker(location.state) && !searched)
    return <Navigate to={`/${encodeURIComponent(only.id)}`} replace />;

  function onCreated(organization: Organization) {
    closeAdd();
    void navigate(`/${encodeURIComponent(organization.id)}`);
  }

  return (
    <Container size="lg" w="100%" py="xl">
      <Stack gap="lg">
        <Group justify="space-between" align="flex-end" gap="md">
          <Stack gap={4}>
            <Title order={1} fz="h2">
              Organizations
            </Title>
            <Text c="dimmed" size="sm">
              Choose an organization to manage its licences, users and credits.
            </Text>
          </Stack>
          <Button leftSection={<IconPlus size={16} aria-hidden="true" />} onClick={openAdd}>
            Add organization
          </Button>
        </Group>
        <SearchInput
          label="Search organizations and users"
          placeholder={SEARCH_HINT.everything}
          value={search}
          onChange={setSearch}
          maw={560}
        />
        {searched ? (
          <SearchResults search={searched} />
        ) : (
          <MyOrganizations systemAdmin={session.role === 'system_admin'} />
        )}
      </Stack>
      <CreateOrganizationModal
        opened={adding}
        onClose={closeAdd}
        onCreated={onCreated}
        mayCreateRoot={session.role === 'system_admin'}
      />
    </Container>
  );
}
