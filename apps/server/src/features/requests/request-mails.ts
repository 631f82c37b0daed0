import { describeRequest, type UpTreeRequest } from '@allot/domain/requests';
import {
  type Mail,
  type MailContent,
  type MailSettings,
  publicLink,
  renderHtml,
  renderText,
  unlinked,
} from '../mail';

/*
 * The mails of requests up the tree (CONTRACT §11): a new request to the admins above, the decision to the person
 * who asked. Names and notes are what people typed: plain text, never a link (unlinked, as invoice mails).
 */

const quoted = (text: string) => `“${unlinked(text)}”`;
/**
 * The request itself on the Requests screen of `organizationId` (issue 33): `?request=` opens it there, above the
 * list, with what may be done with it; the list goes on below.
 */
const requestPage = (
  settings: MailSettings,
  organizationId: string,
  requestId: string,
  direction: 'incoming' | 'outgoing',
) =>
  publicLink(settings, `/${organizationId}/requests`, {
    // The screen's list opens on the incoming requests where there are some: the asker's own are "outgoing".
    ...(direction === 'outgoing' ? { direction } : {}),
    request: requestId,
  });

function mail(kind: string, to: string, subject: string, content: MailContent): Mail {
  return { kind, to, subject, text: renderText(content), html: renderHtml(content) };
}

/** To an owner or admin of the organization asked. */
export function newRequestMail(
  request: UpTreeRequest,
  asker: { name: string; email: string },
  to: { name: string; email: string },
  settings: MailSettings,
): Mail {
  const what = describeRequest(request, request.amount);
  const from = unlinked(request.organization.name);
  return mail('request_created', to.email, `${from} asks for ${what}`, {
    greeting: to.name ? `Hello ${unlinked(to.name)},` : 'Hello,',
    intro: [
      `${quoted(request.organization.name)} asks ${quoted(request.parentOrganization.name)} for ${what}.`,
      `Asked by ${unlinked(asker.name)} (${asker.email}).`,
      ...(request.note ? [`Their note: ${quoted(request.note)}`] : []),
    ],
    action: {
      label: 'Approve or decline it',
      url: requestPage(settings, request.parentOrganization.id, request.id, 'incoming'),
    },
    outro: [
      `You get this email as an owner or admin of ${quoted(request.parentOrganization.name)} in Allot. Approving gives what was asked (or less) from its own shared pool or licences.`,
    ],
  });
}

/** To the person who asked, once the request is approved or declined. */
export function decisionMail(
  request: UpTreeRequest,
  to: { name: string; email: string },
  settings: MailSettings,
): Mail {
  const asked = describeRequest(request, request.amount);
  const above = quoted(request.parentOrganization.name);
  const approved = request.status === 'approved';
  const given = describeRequest(request, request.approvedAmount ?? 0);
  const where =
    request.kind === 'credits'
      ? `They are in the ${request.pool} pool of ${quoted(request.organization.name)}.`
      : `They are in the licence of ${quoted(request.organization.name)}.`;
  return mail(
    approved ? 'request_approved' : 'request_declined',
    to.email,
    approved ? `Your request was approved: ${given}` : `Your request for ${asked} was declined`,
    {
      greeting: to.name ? `Hello ${unlinked(to.name)},` : 'Hello,',
      intro: approved
        ? [
            request.approvedAmount === request.amount
              ? `${above} approved your request for ${asked}.`
              : `${above} approved ${given} of your request for ${asked}.`,
            where,
          ]
        : [
            `${above} declined your request for ${asked}.`,
            ...(request.reason ? [`Their reason: ${quoted(request.reason)}`] : []),
          ],
      action: {
        label: 'Open your request',
        url: requestPage(settings, request.organization.id, request.id, 'outgoing'),
      },
      outro: ['You get this email because you made this request in Allot.'],
    },
  );
}
