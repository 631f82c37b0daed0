import type { OrganizationAbove, RequestPage, UpTreeRequest } from '@allot/domain/requests';
import type { OperationExamples } from '../../http/openapi';

/*
 * The API document's examples of requests up the tree: Maple Elementary asks Riverside District, where Dana is an
 * admin, for 500 credits into its shared pool. Typed by the domain's schemas, and checked against the document's
 * schemas by `npm run lint:api` and test/docs.test.ts.
 */

const maple = { id: '7d0c8f1e-3b5a-4c2d-9e8f-1a2b3c4d5e6f', name: 'Maple Elementary' };
const riverside = { id: '0f9e8d7c-6b5a-4433-8221-1f0e9d8c7b6a', name: 'Riverside District' };
const sam = { id: '5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d', name: 'Sam Rivera', email: 'sam@maple.example' };
const dana = {
  id: '9c8b7a6f-5e4d-4c3b-a291-0f1e2d3c4b5a',
  name: 'Dana Park',
  email: 'dana@riverside.example',
};

const open: UpTreeRequest = {
  id: '3e2d1c0b-9a8f-4e7d-b6c5-4a3b2c1d0e9f',
  status: 'open',
  kind: 'credits',
  amount: 500,
  pool: 'shared',
  licenseType: null,
  note: 'Essay feedback for grade 5 until the end of term.',
  organization: maple,
  parentOrganization: riverside,
  createdAt: '2026-03-02T09:15:00.000Z',
  createdBy: sam,
  decidedAt: null,
  decidedBy: null,
  approvedAmount: null,
  reason: null,
};

const approved: UpTreeRequest = {
  ...open,
  status: 'approved',
  decidedAt: '2026-03-02T14:40:00.000Z',
  decidedBy: dana,
  approvedAmount: 300,
};

const seats: UpTreeRequest = {
  ...open,
  id: '8f7e6d5c-4b3a-4291-8e0f-d1c2b3a49586',
  kind: 'seats',
  amount: 20,
  pool: null,
  licenseType: 'tle_teacher',
  note: 'Five new teachers start in April.',
  createdAt: '2026-03-01T08:00:00.000Z',
};

const declined: UpTreeRequest = {
  ...seats,
  status: 'declined',
  decidedAt: '2026-03-01T16:05:00.000Z',
  decidedBy: dana,
  reason: 'The district has no TLE Teacher seats left until the renewal in May.',
};

const cancelled: UpTreeRequest = {
  ...open,
  status: 'cancelled',
  decidedAt: '2026-03-02T09:20:00.000Z',
  decidedBy: sam,
};

const page: RequestPage = {
  data: [open, declined],
  pagination: {
    page: 1,
    limit: 20,
    search: '',
    total: 2,
    totalExact: true,
    totalPages: 1,
    hasNext: false,
    hasPrev: false,
    key: 'createdAt',
    order: 'desc',
  },
};

const above: OrganizationAbove = {
  parent: riverside,
  managers: [
    { name: 'Lee Chen', email: 'lee@riverside.example', role: 'organization_owner' },
    { name: dana.name, email: dana.email, role: 'organization_admin' },
  ],
  freeSeats: { chorus: true, tle_creator: false, tle_teacher: false, chorus_optoma: false },
  openRequests: 0,
};

export const REQUEST_EXAMPLES = {
  create: {
    body: {
      credits: {
        summary: 'Credits into the shared pool',
        value: { kind: 'credits', amount: 500, pool: 'shared', note: open.note },
      },
      seats: {
        summary: 'Seats of a licence type',
        value: { kind: 'seats', amount: 20, licenseType: 'tle_teacher', note: seats.note },
      },
    },
    responses: { 201: { open: { summary: 'The new request, open', value: open } } },
  },
  get: {
    responses: {
      200: { open: { summary: 'An open request, as the organization asked sees it', value: open } },
    },
  },
  list: {
    responses: { 200: { outgoing: { summary: 'Maple Elementary’s own requests', value: page } } },
  },
  approve: {
    body: {
      partly: { summary: 'Give 300 of the 500 asked', value: { amount: 300 } },
      all: { summary: 'Give all that was asked', value: {} },
    },
    responses: { 200: { approved: { summary: 'Approved: 300 credits moved', value: approved } } },
  },
  decline: {
    body: { reason: { summary: 'With the reason the asker is told', value: { reason: declined.reason } } },
    responses: { 200: { declined: { summary: 'Declined', value: declined } } },
  },
  cancel: {
    responses: { 200: { cancelled: { summary: 'Cancelled by the asker', value: cancelled } } },
  },
  above: {
    responses: { 200: { district: { summary: 'A school under a district', value: above } } },
  },
} satisfies Record<string, OperationExamples>;
