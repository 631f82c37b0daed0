import { Anchor } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { DocPage, type DocSection } from '../../../components/doc-page';

/** A link to another page of the app (or a section of one). */
function To({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Anchor component={Link} to={to} inherit>
      {children}
    </Anchor>
  );
}

const SECTIONS: DocSection[] = [
  {
    id: 'who',
    title: 'Who uses the panel',
    content: (
      <>
        <p>
          Allot hands out licence seats and AI credits for the classroom product across a tree of
          organizations: a network or district at the top, schools below it, and sub-schools below those. This
          panel is for the people who run those organizations.
        </p>
        <ul>
          <li>
            <strong>Owner</strong>: one per organization at most. Can do everything an admin can, and also
            delete organizations (a top-level one only a system admin can), make someone else the owner,
            create the classroom product’s integration keys and require two-factor sign-in.
          </li>
          <li>
            <strong>Admin</strong>: creates and edits sub-organizations, adds and removes people, gives roles
            up to Admin, moves credits and licence seats, buys through invoices and reads the credit and audit
            logs.
          </li>
          <li>
            <strong>Teacher</strong>: uses the classroom product and has no access to this panel (see{' '}
            <To to="#teachers">What a teacher sees</To>).
          </li>
          <li>
            <strong>System admin</strong>: the people who run this installation. They may do everything
            everywhere, and only they create, change or delete licences, fulfil invoices, change the price
            list and create credits from nothing.
          </li>
        </ul>
        <p>
          A role held on an organization applies to it <strong>and to every organization below it</strong>:
          the owner of a district is also, in effect, the owner of each of its schools. A person can belong to
          several organizations, with one role in each. The menu shows only the screens your role there
          allows; a screen you cannot see is one your role does not include.
        </p>
      </>
    ),
  },
  {
    id: 'pools',
    title: 'The two credit pools',
    content: (
      <>
        <p>
          Every organization holds its credits in two pools, shown on <strong>General information</strong>:
        </p>
        <ul>
          <li>
            <strong>Shared pool</strong>: its teachers draw from it when their own credits run out. Credits
            here are ready to be used.
          </li>
          <li>
            <strong>Protected pool</strong>: kept back. Teachers never draw from it; only admins and owners
            move credits out of it, to the shared pool, to organizations below or to people.
          </li>
        </ul>
        <p>
          <strong>Manage credits</strong> moves credits between the two pools of the organization. Credits an
          organization buys arrive in the pool chosen when buying: the shared pool, where its teachers can use
          them, unless you choose the protected pool.
        </p>
        <p>
          Under the pools, <strong>Credit use</strong> shows what was received, handed down and consumed each
          day, and when the credits held in the organization and below would run out at the recent rate.{' '}
          <strong>Low-balance alerts</strong> mail the owner and admins once when the shared pool falls to a
          level you choose (a number of credits, or a percentage of what it held after its last top-up).
        </p>
      </>
    ),
  },
  {
    id: 'credits',
    title: 'How credits move down and back',
    content: (
      <>
        <p>
          Credits are never copied: every move takes them from one place and puts them in another, and every
          move is written to the credit log. Only two things create credits (a system admin’s{' '}
          <strong>Allocate credits</strong> on General information, and a fulfilled invoice for credits) and
          only one destroys them (a teacher using them in the classroom product).
        </p>
        <ul>
          <li>
            <strong>Down to organizations</strong>: on <strong>Sub organizations</strong>, select one or more
            and press <strong>Allocate credits</strong>. Each selected organization gets the amount you type,
            taken from the pool you choose; they land in its shared pool unless you choose its protected pool.
            Either all of them get it or none does.
          </li>
          <li>
            <strong>Back up</strong>: <strong>Reclaim credits</strong> takes the amount from each selected
            organization, from its shared pool, its protected pool, or one first and then the other, into a
            pool of yours.
          </li>
          <li>
            <strong>Sideways</strong>: <strong>Transfer credits</strong> moves credits from one selected
            organization to another organization you manage.
          </li>
          <li>
            <strong>To people</strong>: on <strong>Users</strong>, select people and use{' '}
            <strong>Allocate credits</strong>, <strong>Reclaim credits</strong> or{' '}
            <strong>Transfer credits</strong> (between two people of the organization). Someone invited who
            has not joined yet can be given credits too; they wait for them.
          </li>
        </ul>
        <p>
          A person’s credits belong to the organization that gave them: someone who is a member of two
          organizations has a separate balance in each, and one organization can never spend, move or see the
          other’s. When a person is removed, their balance goes back to the organization’s shared pool. When
          an organization is deleted, its pools go to the same pools of the organization above it.
        </p>
        <p>
          When the classroom product uses credits for a teacher, it takes the teacher’s own balance first,
          then the organization’s shared pool. A move that would take a pool or a balance below zero is
          refused, with a message such as “Not enough available credits in shared pool.”
        </p>
      </>
    ),
  },
  {
    id: 'licences',
    title: 'Licences and seats',
    content: (
      <>
        <p>
          A licence lets the people of an organization use one product: Chorus, TLE Creator, TLE Teacher or
          Chorus Optoma. An organization holds at most one licence of each, with a number of{' '}
          <strong>seats</strong> and an <strong>expiry date</strong>. The <strong>Licenses</strong> screen
          shows, for each licence, the seats used and free, the seats handed down to organizations below, and
          the expiry (“Expires soon” from 30 days before, then “Expired”).
        </p>
        <ul>
          <li>
            Each person holds at most one seat in an organization. Adding a person to an organization that has
            licences takes a free seat (of the licence you choose, or else of the first licence with one
            free); with no free seat left, nobody can be added (see{' '}
            <To to="/faq#add-user">Why can’t I add a user?</To>). <strong>Change licence</strong> on Users
            moves people to a seat of another licence.
          </li>
          <li>
            Seats move down the tree like credits: on Sub organizations, <strong>Allocate licences</strong>{' '}
            hands free seats to the selected organizations and <strong>Reclaim licences</strong> takes free
            seats back. Seats someone holds cannot be reclaimed. An organization that receives seats of a
            product it had no licence of gets a licence that expires with the one above it, and extending the
            one above extends it.
          </li>
          <li>
            An expired licence has no free seats, and the classroom product refuses its holders until it is
            extended. The owner gets a reminder by mail 30 and 7 days before a licence expires.
          </li>
          <li>
            Only system admins create, edit or delete licences. Owners and admins get them by buying (next
            section) or from the organization above.
          </li>
        </ul>
        <p>
          <strong>Seat use</strong>, under the licence cards, shows how many seats were used day by day and
          who holds a seat without having used the product for 30 days.
        </p>
      </>
    ),
  },
  {
    id: 'invoices',
    title: 'Buying: invoices',
    content: (
      <>
        <p>Buying always goes through an invoice. On the Licenses screen:</p>
        <ul>
          <li>
            <strong>Buy a licence</strong>: a product the organization has no licence of, for 3 months, 6
            months, 1 year or 2 years, with a number of seats.
          </li>
          <li>
            <strong>Extend</strong>: a licence’s expiry, by one of those periods. It covers every seat of the
            licence, those handed down included. A licence whose seats came from above cannot be extended on
            its own: it follows the licence above it.
          </li>
          <li>
            <strong>Add more</strong>: seats on a licence, until its current expiry.
          </li>
        </ul>
        <p>
          On General information, <strong>Buy more credits</strong> makes an invoice for one of the credit
          packs.
        </p>
        <p>
          The dialog shows the amount as it is worked out (seats × months × the price of a seat for a month,
          or the pack’s price); the server works it out again from the price list when it creates the invoice.
          Each invoice has a number (such as INV-K7M3QD-0001), is due 30 days later, and is mailed to the
          customer email you give (the organization’s own owners and admins always; an address outside the
          organization a limited number of times a day). It can carry your purchase-order number.
        </p>
        <p>
          <strong>Nothing changes until a system admin fulfils the invoice</strong> (paid, paid another way,
          or for free): only then is the licence created or extended, the seats added, or the credits put into
          the pool the invoice names. An invoice can be voided until then. If another purchase changed the
          licence between the invoice and its fulfilment (more seats, a later expiry), the fulfilment is
          refused: void the invoice and make a new one, which prices the licence as it is now. The
          organization’s invoices are listed on the Licenses screen; <strong>Open</strong> shows one as a
          printable page.
        </p>
      </>
    ),
  },
  {
    id: 'requests',
    title: 'Asking the organization above',
    content: (
      <>
        <p>
          When a school (or any organization with one above it) needs credits or seats, its owners and admins
          ask the organization directly above: <strong>Ask …</strong> on the <strong>Requests</strong> screen,
          or <strong>Ask for credits or seats</strong> under <strong>Managed above by</strong> on General
          information, which also names the owners and admins above. A request is an amount of credits (and
          the pool they should land in, the shared pool unless you choose otherwise) or a number of seats of
          one licence type, with a note if you like. An organization can make at most 10 requests a day. When
          every seat is taken, the notice on the Users screen offers to ask for seats too, if the organization
          above has free ones.
        </p>
        <p>
          The owners and admins above get a mail, and a count of open requests on their Requests menu item.
          They <strong>Approve</strong> all of it or less (the credits come from their shared pool, the seats
          from their licence of that type, and the move is logged like any other), or <strong>Decline</strong>{' '}
          with a reason. Whoever asked gets a mail either way, and the request shows its decision under{' '}
          <strong>Ours</strong>. A request still open can be cancelled by the organization that made it.
        </p>
      </>
    ),
  },
  {
    id: 'credit-log',
    title: 'The credit log',
    content: (
      <>
        <p>
          <strong>Credit log</strong> lists, newest first, every change of this organization’s pools and of
          its members’ balances: the date, the action (pool transfer, allocation, reclaim, transfer, purchase,
          consumption by the classroom product, a deleted organization’s credits…), the credits (signed from
          this organization’s point of view: a minus for credits that left it or were used), a description and
          who did it. <strong>Load more</strong> shows older entries; two dates narrow it to a period; and{' '}
          <strong>Export CSV</strong> saves exactly what the filters show.
        </p>
        <p>
          Each organization has its own log: moves between a school’s own pools and people are in the school’s
          log, not in the district’s. A person who is not a member of this organization or of one above or
          below it is shown as “Someone outside this organization”.
        </p>
      </>
    ),
  },
  {
    id: 'audit-log',
    title: 'The audit log',
    content: (
      <p>
        <strong>Audit log</strong> lists every change made in this organization and in every organization
        below it: organizations created, changed or deleted; people added, changed, removed, given another
        role or licence; licences created, changed, deleted or moved; invoices created, fulfilled or voided;
        credit moves; integration keys created or revoked; the sign-in security setting. Each entry says when,
        who, what and, for a change, the values before and after. Filter it by person, action, organization
        and dates, and export it as CSV. The classroom product’s consumptions are not in it: they are in the
        credit log.
      </p>
    ),
  },
  {
    id: 'integration',
    title: 'The classroom product: integration keys',
    content: (
      <>
        <p>
          The classroom product asks Allot two things: may this teacher use the product now, and take these
          credits. It asks with an <strong>integration key</strong>. On General information,{' '}
          <strong>Integrations</strong> (owners and system admins) lists the organization’s keys and creates
          new ones.
        </p>
        <ul>
          <li>
            A new key is shown <strong>once</strong>: copy it into the classroom product’s settings right
            away. Allot keeps only a fingerprint of it and cannot show it again.
          </li>
          <li>
            A key acts for its organization and every organization below it, and only on the classroom
            product’s calls; it cannot sign in to this panel. An organization has at most 20 keys in use
            (revoked ones do not count).
          </li>
          <li>
            <strong>Revoke</strong> stops a key at once, on the next call it makes. Make a new key first if
            the classroom product should keep working.
          </li>
          <li>
            <strong>Daily limit</strong> caps the credits the organization’s own members may use in one day
            (UTC). Above it, the classroom product is refused until the next day.
          </li>
        </ul>
        <p>
          The people who connect the classroom product find the calls in the API documentation at{' '}
          <Anchor href="/api/docs" inherit>
            /api/docs
          </Anchor>
          .
        </p>
      </>
    ),
  },
  {
    id: 'two-factor',
    title: 'Two-factor sign-in',
    content: (
      <>
        <p>
          With two-factor sign-in, signing in asks for a 6-digit code from an authenticator app on your phone
          as well as your password, so a stolen password alone does not open your account.
        </p>
        <ul>
          <li>
            Turn it on under <strong>Account</strong> (at the top of the screen; on a phone,{' '}
            <strong>Account security</strong> in the menu): scan the QR code with your app, type the code it
            shows, and keep the 10 <strong>recovery codes</strong> somewhere safe. They are shown once; each
            works once, instead of a code from the app, for when the phone is lost.
          </li>
          <li>
            Turning two-factor on or off signs out your other sessions (another browser, another computer).
          </li>
          <li>
            An owner can require it of the owners and admins of the organization and of every organization
            below it: General information, <strong>Sign-in security</strong>. The owner’s own two-factor must
            be on first. People it catches who have not turned it on are signed out and set it up at their
            next sign-in.
          </li>
          <li>
            Lost the phone and the recovery codes? A system admin can turn your two-factor off (Users, the
            row’s menu, <strong>Reset two-factor</strong>); you then sign in with your password and turn it on
            again.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: 'teachers',
    title: 'What a teacher sees',
    content: (
      <>
        <p>
          Teachers do not use this panel. If a teacher signs in here, they are told: “Teachers sign in to the
          classroom product. This panel is for organization owners and admins.”
        </p>
        <p>
          A teacher you add gets an invitation by mail with a code, to set up the account (someone who already
          has an account gets a mail asking them to join your organization). After that they use the classroom
          product, which asks Allot whether they may use it. That is the case when all of these hold: they
          joined the organization, their account is set up, the organization has a licence of the product that
          has not expired, they hold a seat of it, and they have credits of their own or the organization’s
          shared pool has some.
        </p>
        <p>
          On Users, a person’s menu has <strong>Check product access</strong>: it shows what the classroom
          product is told about them right now and, for each thing missing, the step that fixes it (see{' '}
          <To to="/faq#not-entitled">Why is this teacher not entitled?</To>).
        </p>
      </>
    ),
  },
];

/** Help (spec §2 footer, issue 36): the panel explained for owners and admins, in one page of plain text. */
export function HelpScreen() {
  return (
    <DocPage
      title="Help"
      intro={
        <p>
          How Allot works, for the owners and admins of organizations. Answers to the questions the screens
          raise are in the <To to="/faq">FAQ</To>.
        </p>
      }
      sections={SECTIONS}
    />
  );
}
