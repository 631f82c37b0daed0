import { ENTITLEMENT_REASON_TEXT, type EntitlementReason } from '@allot/domain/integration';
import { APP_MSG, MSG } from '@allot/domain/messages';
import { Anchor, Code } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { DocPage, type DocSection } from '../../../components/doc-page';

function To({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Anchor component={Link} to={to} inherit>
      {children}
    </Anchor>
  );
}

/** What fixes each entitlement reason, in the order the product access panel lists them (CONTRACT §9). */
const REASON_FIX: Record<EntitlementReason, ReactNode> = {
  not_a_member: (
    <>
      They were invited and have not entered the code from the mail yet. Use{' '}
      <strong>Resend invitation</strong> in their row’s menu: a new mail goes out; the code of the earlier
      mail works too until it expires, and using either ends both.
    </>
  ),
  not_verified: (
    <>
      Their account is new and they have not set it up from the invitation mail (a password and the code).
      Resend the invitation the same way.
    </>
  ),
  no_licence_of_type: (
    <>
      Buy a licence of the product on the Licenses screen (<strong>Buy a licence</strong>), or ask the admins
      of the organization above to hand seats of it down to you.
    </>
  ),
  licence_expired: (
    <>
      Extend the licence on the Licenses screen (<strong>Extend</strong>). A licence whose seats came from the
      organization above expires with that one: ask its admins.
    </>
  ),
  no_seat: (
    <>
      Give them a seat: <strong>Give a seat</strong> in the panel, or <strong>Change licence</strong> on
      Users. No free seat left? See <To to="#add-user">Why can’t I add a user?</To>
    </>
  ),
  no_credits: (
    <>
      Their own balance and the shared pool are both empty. Allocate credits to them on Users, or put credits
      into the shared pool (<strong>Manage credits</strong> moves them from the protected pool; the
      organization above can allocate more; <strong>Buy more credits</strong> buys them).
    </>
  ),
};

const SECTIONS: DocSection[] = [
  {
    id: 'people',
    title: 'People and seats',
    subsections: [
      {
        id: 'add-user',
        title: 'Why can’t I add a user?',
        content: (
          <>
            <p>
              <strong>Every seat is used.</strong> In an organization that has licences, each person takes a
              licence seat. When every seat is taken, <strong>Add user</strong> is greyed out and says “Every
              licence seat of … is used.”; the server refuses with status 402 (“{APP_MSG.noFreeSeat}”), and an
              import that runs out of seats stops part-way: “{MSG.bulkLicenceLimit}” The people added before
              it stopped stay added. To make room:
            </p>
            <ul>
              <li>remove someone who no longer needs a seat (their seat is freed at once);</li>
              <li>reclaim free seats from an organization below (Sub organizations, Reclaim licences);</li>
              <li>ask the admins of the organization above to hand seats down to you;</li>
              <li>
                buy seats: Licenses, <strong>Add more</strong> on the licence. The seats arrive when a system
                admin fulfils the invoice.
              </li>
            </ul>
            <p>An expired licence has no free seats at all: extend it first.</p>
            <p>
              <strong>“{MSG.emailTaken}”</strong> The person is already a member of this organization, or
              already invited to it. Look for them in the Users list (search by email).
            </p>
            <p>
              <strong>A role you cannot give.</strong> You can give roles up to your own; only an owner can
              make someone the owner.
            </p>
            <p>
              <strong>Too many invitations today.</strong> Each organization may send a limited number of
              invitations a day (set by the operator); try again the next day.
            </p>
          </>
        ),
      },
      {
        id: 'invitation-mail',
        title: 'The invitation mail did not arrive',
        content: (
          <p>
            Use <strong>Resend invitation</strong> in the person’s row menu on Users: a new mail goes out, and
            the code of the earlier one works too until it expires. Ask them to look in their spam folder too.
            When the people who run this installation have not connected a mail server, no mail leaves it at
            all: system admins then see “Mail is not sent” at the top of the screen, and read the waiting
            mails in the mail outbox.
          </p>
        ),
      },
      {
        id: 'import-skipped',
        title: 'Why were rows of my CSV file skipped?',
        content: (
          <p>
            The import skips a row whose email is not valid or repeats an earlier row, whose name is missing,
            whose role is neither Teacher nor Admin, or whose person is already a member of the organization
            or invited to it, and it says why for each row. <strong>Download skipped rows</strong> saves them
            as a file; fix it and import it again as it is. A file without a role column adds everyone as a
            Teacher.
          </p>
        ),
      },
      {
        id: 'menu',
        title: 'Why don’t I see Licenses, Users or the logs?',
        content: (
          <p>
            The menu shows only what your role in this organization allows: Licenses, Users, Sub
            organizations, the Credit log and the Audit log are for owners and admins. If you expected to see
            them, your role in this organization may be lower than you think: ask its owner.
          </p>
        ),
      },
      {
        id: 'delete-organization',
        title: 'Why can’t I delete this organization?',
        content: (
          <p>
            Only owners delete organizations, and only system admins delete a top-level one. An organization
            that still has sub-organizations cannot be deleted: delete those first. The delete button says
            which of these applies.
          </p>
        ),
      },
    ],
  },
  {
    id: 'product-access',
    title: 'The classroom product',
    subsections: [
      {
        id: 'not-entitled',
        title: 'Why is this teacher not entitled?',
        content: (
          <>
            <p>
              On Users, open the teacher’s row menu and choose <strong>Check product access</strong>. It shows
              what the classroom product is told about them now, and each reason, in the order to fix them:
            </p>
            <ul>
              {(Object.keys(REASON_FIX) as EntitlementReason[]).map((reason) => (
                <li key={reason}>
                  <strong>{ENTITLEMENT_REASON_TEXT[reason]}</strong> (<Code>{reason}</Code>){' '}
                  {REASON_FIX[reason]}
                </li>
              ))}
            </ul>
            <p>
              The panel offers the fix beside each reason when you may make it. Once nothing is missing, the
              next check of the classroom product lets them in.
            </p>
          </>
        ),
      },
      {
        id: 'daily-limit',
        title: 'The classroom product says the daily limit is reached',
        content: (
          <p>
            The organization’s <strong>Daily limit</strong> (General information, Integrations) caps the
            credits its own members may use in one day, counted in UTC. Raise it or remove it there (owners),
            or wait for the next day.
          </p>
        ),
      },
      {
        id: 'key-refused',
        title: 'The classroom product stopped working after a key was revoked',
        content: (
          <p>
            A revoked key is refused from its next call on. Create a new key under Integrations and put it in
            the classroom product’s settings; the key is shown only once, when it is created.
          </p>
        ),
      },
    ],
  },
  {
    id: 'credits-questions',
    title: 'Credits',
    subsections: [
      {
        id: 'where-credits-went',
        title: 'Where did these credits go?',
        content: (
          <>
            <p>
              Open the <strong>Credit log</strong>: every change of this organization’s pools and of its
              members’ balances is there, newest first, with who made it. Narrow it to the days in question
              with the two dates; export it as CSV to add it up. What you may find:
            </p>
            <ul>
              <li>
                <strong>Consumption</strong>: the classroom product used them for a teacher (the teacher’s own
                balance first, then the shared pool). The description names what they paid for.
              </li>
              <li>
                <strong>Reclaim</strong> or <strong>Transfer</strong>: an admin of this organization or of one
                above took them elsewhere.
              </li>
              <li>
                <strong>Allocation</strong> to an organization below or to people: they are in that
                organization’s pools or those people’s balances now.
              </li>
              <li>
                <strong>Pool transfer</strong>: moved between the shared and the protected pool, still here.
              </li>
              <li>A person removed from the organization: their balance went back to the shared pool.</li>
            </ul>
            <p>
              Moves inside an organization below (between its own pools or its own people) are in that
              organization’s credit log, not in yours: open it from Sub organizations. The audit log shows who
              made each move too.
            </p>
          </>
        ),
      },
      {
        id: 'bought-credits',
        title: 'I bought credits; why can’t the teachers use them?',
        content: (
          <p>
            Bought credits arrive only when a system admin fulfils the invoice, and then in the pool chosen
            when buying: the shared pool unless the <strong>protected pool</strong> was chosen (invoices made
            before that choice existed put them in the protected pool). Teachers never draw from the protected
            pool: move them to the shared pool with <strong>Manage credits</strong> on General information, or
            allocate them to people.
          </p>
        ),
      },
      {
        id: 'not-enough',
        title: 'A move says there are not enough credits',
        content: (
          <p>
            “Not enough available credits in shared pool.” (or protected pool) means the pool you take from
            holds less than the amount, times the number of organizations or people selected: each gets the
            full amount. “… only has N credits available.” names the organization or person you take from.
            Choose the other pool, a smaller amount, or fewer targets. Nothing is moved when a move is
            refused.
          </p>
        ),
      },
    ],
  },
  {
    id: 'licences-questions',
    title: 'Licences and invoices',
    subsections: [
      {
        id: 'cannot-extend',
        title: 'Why can’t I extend this licence?',
        content: (
          <p>
            Its seats were handed down from the organization above, and it expires with that organization’s
            licence. Ask the admins there to extend theirs: yours follows. An expired licence takes no added
            seats either: extend it first.
          </p>
        ),
      },
      {
        id: 'invoice-waiting',
        title: 'I created an invoice, and nothing changed',
        content: (
          <p>
            An invoice changes nothing until a system admin fulfils it, usually once it is paid. It stays
            “open” on the Licenses screen until then. If its licence changed meanwhile, the fulfilment is
            refused and the invoice has to be voided and made again.
          </p>
        ),
      },
      {
        id: 'invoice-not-mailed',
        title: 'Why was my invoice not mailed?',
        content: (
          <p>
            Invoices always go to the organization’s owners and admins. To an address outside the
            organization, an organization may send a limited number of invoice mails a day; beyond that the
            invoice is created but not mailed, and says so. Open it from the Licenses screen and print it or
            send the page yourself.
          </p>
        ),
      },
    ],
  },
  {
    id: 'signing-in',
    title: 'Signing in',
    subsections: [
      {
        id: 'signed-out',
        title: 'Why was I signed out?',
        content: (
          <>
            <p>A session ends:</p>
            <ul>
              <li>after 7 days without using the panel, or when you sign out;</li>
              <li>when the password is reset, or the account’s email changes;</li>
              <li>
                when two-factor sign-in is turned on or off for the account (other sessions), or reset by a
                system admin;
              </li>
              <li>
                when an owner starts requiring two-factor sign-in and yours is not on: set it up at the next
                sign-in;
              </li>
              <li>when your role is lowered to Teacher, or you are removed from your last organization.</li>
            </ul>
            <p>
              The sign-in screen then says “Your session ended”, and whether your last change was saved. Sign
              in again and you are back on the page you were on.
            </p>
          </>
        ),
      },
      {
        id: 'lost-phone',
        title: 'I lost the phone with my authenticator app',
        content: (
          <p>
            Sign in with one of your recovery codes instead of a code from the app (each works once). Then,
            under Account, turn two-factor off (it asks for your password and another recovery code) and on
            again with the new phone. Without recovery codes, or when your organization requires two-factor
            sign-in (it cannot be turned off then), ask a system admin to reset it.
          </p>
        ),
      },
      {
        id: 'teacher-sign-in',
        title: 'A teacher cannot sign in here',
        content: (
          <p>
            That is by design: teachers use the classroom product, not this panel, and are told so when they
            try. See <To to="/help#teachers">What a teacher sees</To>.
          </p>
        ),
      },
    ],
  },
];

/** FAQ (spec §2 footer, issue 36): the questions the screens raise, every answer in the page's text. */
export function FaqScreen() {
  return (
    <DocPage
      title="Frequently asked questions"
      intro={
        <p>
          The questions the screens raise, answered. How the panel works as a whole is in the{' '}
          <To to="/help">Help</To>.
        </p>
      }
      sections={SECTIONS}
    />
  );
}
