/**
 * Data a browser test sets up through the e2e server's API: organizations, members with their accounts set
 * up, ids found by name, invoices for credits, members removed and invoices voided again. Each step checks its answer, so that a test fails at the step
 * that went wrong, not later on a screen.
 */
import type { Invoice } from '@allot/domain/invoices';
import { expect } from 'vitest';
import type { SmtpCatcher } from '../../apps/server/test/support/smtp-catcher';
import { callApi } from './api';
import { codeIn } from './mail';

export interface CreatedUser {
  id: string;
  name: string;
  email: string;
}

/** Creates an organization (with an owner to invite when `adminName` and `adminEmail` are given); its id. */
export async function createOrganization(
  baseUrl: string,
  token: string,
  organization: {
    name: string;
    type: string;
    phoneNumber: string;
    parentOrganizationId: string | null;
    adminName?: string;
    adminEmail?: string;
  },
): Promise<string> {
  const answer = await callApi<{ id: string }>(baseUrl, 'POST', '/organization/create', {
    token,
    body: organization,
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.id;
}

/** A person invited through the API sets the account up with the code of the invitation mail. */
export async function setUpAccount(
  baseUrl: string,
  smtp: SmtpCatcher,
  email: string,
  password: string,
): Promise<void> {
  const mail = await smtp.waitFor(email, (m) => m.subject.startsWith('You are invited'));
  const answer = await callApi(baseUrl, 'POST', '/auth/verify', {
    body: { email, code: codeIn(mail.text), password },
  });
  expect(answer.status).toBe(200);
}

/** A member created through the API whose account is set up (`setUpAccount`): a member, not pending. */
export async function createMember(
  baseUrl: string,
  smtp: SmtpCatcher,
  token: string,
  member: { email: string; name: string; organizationId: string; role: string; password: string },
): Promise<CreatedUser> {
  const { password, ...body } = member;
  const answer = await callApi<CreatedUser>(baseUrl, 'POST', '/user/create', { token, body });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  await setUpAccount(baseUrl, smtp, member.email, password);
  return answer.body;
}

/** The id of one of the caller's own organizations (GET /organization), by name; '' when it has none of that name. */
export async function myOrganizationId(baseUrl: string, token: string, name: string): Promise<string> {
  const mine = await callApi<{ id: string; name: string }[]>(baseUrl, 'GET', '/organization', { token });
  return mine.body.find((o) => o.name === name)?.id ?? '';
}

/** The ids of an organization's direct sub-organizations, by name ('' for a name that is not one of them). */
export async function subOrganizationIds(
  baseUrl: string,
  token: string,
  parentId: string,
): Promise<(name: string) => string> {
  const children = await callApi<{ data: { id: string; name: string }[] }>(
    baseUrl,
    'GET',
    `/organization/${parentId}/sub-organizations?limit=100`,
    { token },
  );
  return (name) => children.body.data.find((o) => o.name === name)?.id ?? '';
}

/** Removes from the organization every member (or invitation) the users search finds for `search`. */
export async function removeMembersFound(
  baseUrl: string,
  token: string,
  organizationId: string,
  search: string,
): Promise<void> {
  const found = await callApi<{ data: { id: string }[] }>(
    baseUrl,
    'GET',
    `/organization/${organizationId}/users?limit=100&search=${encodeURIComponent(search)}`,
    { token },
  );
  for (const { id } of found.body.data) {
    await callApi(baseUrl, 'POST', '/user/remove', { token, body: { organizationId, userIds: [id] } });
  }
}

/** Removes the member (or invitation) of this address from the organization, if it is there. */
export async function removeMemberByEmail(
  baseUrl: string,
  token: string,
  organizationId: string,
  email: string,
): Promise<void> {
  const members = await callApi<{ data: { id: string; email: string }[] }>(
    baseUrl,
    'GET',
    `/organization/${organizationId}/users?limit=100&search=${encodeURIComponent(email)}`,
    { token },
  );
  const id = members.body.data.find((u) => u.email === email)?.id;
  if (id) {
    await callApi(baseUrl, 'POST', '/user/remove', { token, body: { organizationId, userIds: [id] } });
  }
}

/** The credits of the first pack the price list offers (GET /invoice/products). */
export async function firstCreditPack(baseUrl: string, token: string): Promise<number | undefined> {
  const products = await callApi<{ creditPacks: { credits: number }[] }>(
    baseUrl,
    'GET',
    '/invoice/products',
    {
      token,
    },
  );
  return products.body.creditPacks[0]?.credits;
}

/** An open invoice for credits, bought by the caller for the organization (with a PO number when given). */
export async function createCreditsInvoice(
  baseUrl: string,
  token: string,
  invoice: {
    organizationId: string;
    credits: number | undefined;
    customerEmail: string;
    purchaseOrder?: string;
  },
): Promise<Invoice> {
  const answer = await callApi<Invoice>(baseUrl, 'POST', '/invoice/create', {
    token,
    body: { kind: 'credits', ...invoice },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body;
}

/** Voids an invoice (a system admin's token), so that a test leaves no open invoice behind. */
export async function voidInvoice(baseUrl: string, adminToken: string, invoiceId: string): Promise<void> {
  await callApi(baseUrl, 'POST', `/invoice/${invoiceId}/void`, { token: adminToken });
}
