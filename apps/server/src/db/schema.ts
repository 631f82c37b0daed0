import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/** Full-text lexemes: the words of a name or email for word-prefix search (decision 002, "Search"). */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/*
 * Word-prefix search (CONTRACT §1, decision 002). The SQL functions named here are listed in db/README.md
 * (created by migration 0014, redefined by 0041): `search_marked_name`/`search_marked_user` write the folded
 * text (lower case, accents off) with a marker before every word start, which the exact check of a search
 * reads; `search_vector` holds the words, prefixed with a key of the scope they are searched in, for the GIN
 * indexes.
 */
const NIL_SCOPE = sql.raw(`'00000000-0000-0000-0000-000000000000'::uuid`);

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

// ── Users and sign-in (features/auth, features/users) ──────────────────────────────────────────────────────

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    locale: text('locale').notNull().default('en-us'),
    passwordHash: text('password_hash'),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    isSystemAdmin: boolean('is_system_admin').notNull().default(false),
    /** The name and email as a search checks them (see above), for lists read member by member. */
    searchText: text('search_text').notNull().generatedAlwaysAs(sql`search_marked_user(name, email)`),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`),
    index('users_name_idx').on(t.name),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    /** The sliding end: 7 days after the last use, never past `endsAt`. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** The absolute end: SESSION_MAX_DAYS after the sign-in (migration 0044). */
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull().default(sql`now() + interval '30 days'`),
    /** Opened with the second factor (a code step, or the session that turned two-factor on). */
    usedMfa: boolean('used_mfa').notNull().default(false),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('sessions_token_hash_key').on(t.tokenHash),
    index('sessions_user_idx').on(t.userId),
    index('sessions_expires_idx').on(t.expiresAt),
  ],
);

/**
 * Two-factor sign-in (migration 0031, decision 015): the TOTP secret of an account (AES-256-GCM with
 * MFA_ENCRYPTION_KEY, or marked plain without one), when it was confirmed (null: set up, not confirmed), and the
 * last time step a code was accepted for (each code works once).
 */
export const userMfa = pgTable('user_mfa', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secret: text('secret').notNull(),
  enabledAt: timestamp('enabled_at', { withTimezone: true }),
  lastUsedStep: bigint('last_used_step', { mode: 'number' }),
  ...timestamps,
});

/** Recovery codes: SHA-256 of the account and the code; a used code is deleted. */
export const mfaRecoveryCodes = pgTable(
  'mfa_recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('mfa_recovery_codes_user_hash_key').on(t.userId, t.codeHash)],
);

/**
 * The second step of a sign-in whose password was right (`details.challenge`): only the token's SHA-256,
 * single use, short-lived; `sign_in` answers a code, `setup` lets the account set two-factor up.
 */
export const mfaChallenges = pgTable(
  'mfa_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('mfa_challenges_token_hash_key').on(t.tokenHash),
    index('mfa_challenges_user_idx').on(t.userId),
    check('mfa_challenges_kind_check', sql`${t.kind} in ('sign_in','setup')`),
  ],
);

/**
 * One-time codes of password reset and email verification mails. Only hashes are kept: the 6-digit code
 * hashed with the user id and purpose, and for a reset the link's random token. Used or replaced codes go.
 */
export const oneTimeCodes = pgTable(
  'one_time_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').notNull(),
    codeHash: text('code_hash').notNull(),
    tokenHash: text('token_hash'),
    /**
     * What the code is for, beyond its purpose: the organization of a membership invitation, the new
     * address of an email change. An email change or a reset has one live code per user; verifications and
     * invitations keep the earlier ones of a subject alive until they expire (features/auth/one-time-codes.ts).
     */
    subject: text('subject'),
    failedAttempts: integer('failed_attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('one_time_codes_user_purpose_idx').on(t.userId, t.purpose),
    check(
      'one_time_codes_purpose_check',
      sql`${t.purpose} in ('password_reset','email_verification','membership_invitation','email_change')`,
    ),
  ],
);

/** Fixed-window counters shared by every server process (login, code guessing). */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull(),
    count: integer('count').notNull(),
  },
  (t) => [index('rate_limits_window_idx').on(t.windowStartedAt)],
);

// ── Organizations and their people (features/organizations, features/users) ────────────────────────────────

export const organizations = pgTable(
  'organizations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    type: text('type').notNull(),
    phoneNumber: text('phone_number').notNull(),
    parentId: uuid('parent_id').references((): AnyPgColumn => organizations.id, { onDelete: 'restrict' }),
    depth: integer('depth').notNull().default(0),
    /**
     * The balances of the organization's two pool accounts, copied by the journal in the same transaction
     * (the accounts stay the ledger): lists show and sort by them without two lookups per row.
     */
    sharedCredits: bigint('shared_credits', { mode: 'number' }).notNull().default(0),
    protectedCredits: bigint('protected_credits', { mode: 'number' }).notNull().default(0),
    /** Alert settings were saved (migration 0043): the low-balance alert trigger runs only then. */
    creditAlerts: boolean('credit_alerts').notNull().default(false),
    /**
     * Counters kept by triggers (migration 0006) in the same statement as the rows they count: members,
     * live children, live organizations anywhere below. Lists sort and count by them without joins.
     */
    usersCount: integer('users_count').notNull().default(0),
    subOrganizationsCount: integer('sub_organizations_count').notNull().default(0),
    descendantsCount: integer('descendants_count').notNull().default(0),
    /**
     * The most credits the classroom product may consume in this organization in one UTC day (issue 15,
     * "Limits"); null: no limit. Checked against `consumption_days` in the consumption's transaction.
     */
    dailyConsumptionLimit: bigint('daily_consumption_limit', { mode: 'number' }),
    /**
     * Set by an owner (migration 0031, decision 015): the owners and admins of this organization and of every
     * one below sign in with two-factor.
     */
    requireMfa: boolean('require_mfa').notNull().default(false),
    /** Deleted organizations stay, so that the credit journal keeps its accounts; nothing else sees them. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /** The name as a search checks it, and its words (see `NIL_SCOPE`: a system admin's search). */
    searchText: text('search_text').notNull().generatedAlwaysAs(sql`search_marked_name(name)`),
    searchVector: tsvector('search_vector')
      .notNull()
      .generatedAlwaysAs(sql`search_vector(${NIL_SCOPE}, name, null)`),
    ...timestamps,
  },
  (t) => [
    index('organizations_parent_name_idx').on(t.parentId, t.name),
    // The name walk of a system admin's search (live organizations by name, with `search_text`) is an
    // INCLUDE index, which drizzle cannot write: migration 0014.
    index('organizations_search_vector_idx').using('gin', t.searchVector).where(sql`${t.deletedAt} is null`),
    check(
      'organizations_daily_consumption_limit_check',
      sql`${t.dailyConsumptionLimit} is null or ${t.dailyConsumptionLimit} > 0`,
    ),
    check(
      'organizations_type_check',
      sql`${t.type} in ('district','school','network','university','company','other')`,
    ),
  ],
);

/** Ancestry: one row per (ancestor, descendant) pair including self (depth 0), kept with the tree. */
export const organizationClosure = pgTable(
  'organization_closure',
  {
    ancestorId: uuid('ancestor_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    descendantId: uuid('descendant_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    depth: integer('depth').notNull(),
    /**
     * The descendant's name, copied (tree.ts, organization rename): "organizations under X by name" and
     * "organizations under X whose name contains …" become one index range instead of a join over the
     * whole subtree.
     */
    name: text('name').notNull().default(''),
    /** The name as a search checks it, and its words keyed by the ancestor: a search inside its subtree. */
    searchText: text('search_text').notNull().generatedAlwaysAs(sql`search_marked_name(name)`),
    searchVector: tsvector('search_vector')
      .notNull()
      .generatedAlwaysAs(sql`search_vector(ancestor_id, name, null)`),
  },
  (t) => [
    primaryKey({ columns: [t.ancestorId, t.descendantId] }),
    index('organization_closure_descendant_idx').on(t.descendantId, t.depth),
    // A subtree in name order is an INCLUDE index (with `search_text`), which drizzle cannot write:
    // migration 0014.
    index('organization_closure_search_vector_idx').using('gin', t.searchVector),
  ],
);

/** A user's role in one organization; a seat of one of its licences when it holds one. */
export const memberships = pgTable(
  'memberships',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    licenseId: uuid('license_id').references(() => licenses.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.organizationId] }),
    index('memberships_organization_role_idx').on(t.organizationId, t.role),
    index('memberships_license_idx').on(t.licenseId),
    uniqueIndex('memberships_one_owner_key')
      .on(t.organizationId)
      .where(sql`${t.role} = 'organization_owner'`),
    check('memberships_role_check', sql`${t.role} in ('organization_owner','organization_admin','user')`),
  ],
);

/**
 * A membership offered to an account that already existed (CONTRACT §3: never attached at once): the role
 * and the seat it will have, held until the account accepts with the mailed code, and what the inviter
 * typed (the only thing the inviter sees of it). Kept apart from `memberships`, so that nothing that reads
 * memberships (access, scopes, sign in, search, counters) can mistake an offer for a membership.
 */
export const membershipInvitations = pgTable(
  'membership_invitations',
  {
    /** How answers name the invited person (CONTRACT §3): never the account's own id. */
    id: uuid('id').notNull().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    licenseId: uuid('license_id').references(() => licenses.id, { onDelete: 'set null' }),
    invitedName: text('invited_name').notNull(),
    invitedEmail: text('invited_email').notNull(),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.organizationId] }),
    uniqueIndex('membership_invitations_id_key').on(t.id),
    index('membership_invitations_organization_idx').on(t.organizationId),
    index('membership_invitations_license_idx').on(t.licenseId),
    check(
      'membership_invitations_role_check',
      sql`${t.role} in ('organization_owner','organization_admin','user')`,
    ),
  ],
);

// ── Search (lib/search.ts): kept by triggers, see db/README.md ─────────────────────────────────────────────

/**
 * Users as a search over many of them finds them: one row per user and top-level organization it belongs
 * to (`scope_id`), and one with the nil id for system admins, who see everyone. Kept by triggers on users
 * and memberships (migration 0014). The GIN index finds the matches of a search in one scope; the two
 * btrees walk a scope in name or email order, checking each entry without reading the table.
 */
export const userSearch = pgTable(
  'user_search',
  {
    scopeId: uuid('scope_id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    emailKey: text('email_key').notNull(),
    searchText: text('search_text').notNull().generatedAlwaysAs(sql`search_marked_user(name, email_key)`),
    searchVector: tsvector('search_vector')
      .notNull()
      .generatedAlwaysAs(sql`search_vector(scope_id, name, email_key)`),
  },
  (t) => [
    primaryKey({ columns: [t.scopeId, t.userId] }),
    index('user_search_user_idx').on(t.userId),
    index('user_search_vector_idx').using('gin', t.searchVector),
    // The two walk indexes carry `search_text` (INCLUDE, which drizzle cannot write): migration 0014.
  ],
);

/*
 * Also in migration 0014, kept by triggers only and read by the searches of one word: `user_search_words`
 * and `organization_search_words`, one entry per word of a searched row and scope with the row's previous
 * word, in a btree with a "C" collation (which drizzle cannot write) (decision 002, "Search").
 */

// ── Licences (features/licenses) ───────────────────────────────────────────────────────────────────────────

export const licenses = pgTable(
  'licenses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    licenseType: text('license_type').notNull(),
    expireAt: timestamp('expire_at', { withTimezone: true }).notNull(),
    maxUsers: integer('max_users').notNull(),
    metadata: jsonb('metadata').notNull().default({}),
    /** The licence of the organization above whose seats were handed down here: its expiry is this one's. */
    sourceLicenseId: uuid('source_license_id').references((): AnyPgColumn => licenses.id, {
      onDelete: 'set null',
    }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('licenses_organization_type_key').on(t.organizationId, t.licenseType),
    index('licenses_source_idx').on(t.sourceLicenseId),
    check('licenses_max_users_check', sql`${t.maxUsers} >= 0`),
    check(
      'licenses_type_check',
      sql`${t.licenseType} in ('chorus','tle_creator','tle_teacher','chorus_optoma')`,
    ),
  ],
);

/**
 * The licence log (decision 009): every change of a licence's seats or expiry, one row per organization
 * concerned, written in the change's own transaction. Append-only; a licence's `max_users` is the sum of its
 * rows' `seats` (checked at commit by the database).
 */
export const licenseEvents = pgTable(
  'license_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    seq: bigint('seq', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    /** No reference: a deleted licence keeps its log. */
    licenseId: uuid('license_id').notNull(),
    licenseType: text('license_type').notNull(),
    action: text('action').notNull(),
    /** Signed change of this licence's seats. */
    seats: integer('seats').notNull(),
    maxUsersAfter: integer('max_users_after').notNull(),
    expireAtAfter: timestamp('expire_at_after', { withTimezone: true }).notNull(),
    description: text('description').notNull().default(''),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('license_events_seq_key').on(t.seq),
    index('license_events_organization_idx').on(t.organizationId, t.seq),
    index('license_events_license_idx').on(t.licenseId),
  ],
);

/** Expiry reminders sent: one per licence, expiry and threshold (30 or 7 days), whatever the processes. */
export const licenseExpiryReminders = pgTable(
  'license_expiry_reminders',
  {
    licenseId: uuid('license_id').notNull(),
    expireAt: timestamp('expire_at', { withTimezone: true }).notNull(),
    daysBefore: integer('days_before').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.licenseId, t.expireAt, t.daysBefore] })],
);

// ── Credits: the ledger (features/credits) ─────────────────────────────────────────────────────────────────

/**
 * Credit balances: two pools per organization (and its `consumed` account), one per membership (kind `user`:
 * a person's credits in one organization, CONTRACT §5), and the system account that mints (the only one
 * allowed below zero: it is the negative of every credit in circulation). Kind `person` is the one balance per
 * person of before migration 0020: closed, it only gave (the split to memberships).
 */
export const creditAccounts = pgTable(
  'credit_accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    organizationId: uuid('organization_id').references(() => organizations.id, { onDelete: 'restrict' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'restrict' }),
    balance: bigint('balance', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    uniqueIndex('credit_accounts_org_kind_key')
      .on(t.organizationId, t.kind)
      .where(sql`${t.kind} in ('shared','protected','consumed')`),
    uniqueIndex('credit_accounts_member_key').on(t.organizationId, t.userId).where(sql`${t.kind} = 'user'`),
    uniqueIndex('credit_accounts_person_key').on(t.userId).where(sql`${t.kind} = 'person'`),
    index('credit_accounts_user_idx').on(t.userId).where(sql`${t.userId} is not null`),
    uniqueIndex('credit_accounts_system_key').on(t.kind).where(sql`${t.kind} = 'system'`),
    check(
      'credit_accounts_kind_check',
      sql`${t.kind} in ('shared','protected','user','system','consumed','person')`,
    ),
    check('credit_accounts_balance_check', sql`${t.balance} >= 0 or ${t.kind} = 'system'`),
    check(
      'credit_accounts_owner_check',
      sql`(${t.kind} in ('shared','protected','consumed') and ${t.organizationId} is not null and ${t.userId} is null)
        or (${t.kind} = 'user' and ${t.userId} is not null and ${t.organizationId} is not null)
        or (${t.kind} = 'person' and ${t.userId} is not null and ${t.organizationId} is null)
        or (${t.kind} = 'system' and ${t.userId} is null and ${t.organizationId} is null)`,
    ),
  ],
);

/** Journal header: one per move of credits. */
export const creditTransactions = pgTable(
  'credit_transactions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    action: text('action').notNull(),
    description: text('description').notNull().default(''),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Order of the credit log and its cursor: grows with every transaction, never reused. */
    seq: bigint('seq', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    /** The database transaction that wrote it: entries may only be added by that same transaction. */
    xact: bigint('xact', { mode: 'number' }).notNull().default(sql`(pg_current_xact_id()::text::bigint)`),
  },
  (t) => [uniqueIndex('credit_transactions_seq_key').on(t.seq)],
);

/** Journal lines: the amounts of one transaction sum to zero. */
export const creditEntries = pgTable(
  'credit_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    // No foreign key (migration 0042): the balance trigger refuses a line whose journal transaction this
    // database transaction did not write (CR005), and journal transactions are never deleted (CR003).
    transactionId: uuid('transaction_id').notNull(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => creditAccounts.id, { onDelete: 'restrict' }),
    amount: bigint('amount', { mode: 'number' }).notNull(),
  },
  (t) => [
    index('credit_entries_account_idx').on(t.accountId, t.id),
    index('credit_entries_transaction_idx').on(t.transactionId),
    check('credit_entries_amount_check', sql`${t.amount} <> 0`),
  ],
);

// ── Idempotent writes (the `Idempotency-Key` of the API's writes) ──────────────────────────────────────────

/**
 * `Idempotency-Key`s of credit moves (CONTRACT §5), per caller: the request's hash and the first answer,
 * written in the move's own transaction, kept 24 hours. The caller is a user (a session) or an integration
 * key (CONTRACT §9): both ids are uuids, so no foreign key; keys of a deleted caller expire like the rest.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    callerId: uuid('caller_id').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    status: integer('status').notNull(),
    response: jsonb('response').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.callerId, t.key] }),
    index('idempotency_keys_created_idx').on(t.createdAt),
  ],
);

// ── Invoices and the price list (features/invoices) ────────────────────────────────────────────────────────

/** The price list's currency (one row): every price and every new invoice is in it (decision 010). */
export const priceList = pgTable(
  'price_list',
  {
    id: integer('id').primaryKey().default(1),
    currency: text('currency').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [check('price_list_single_row', sql`${t.id} = 1`)],
);

/** Per licence type: the price of one seat for one month, in minor units. */
export const licensePrices = pgTable(
  'license_prices',
  {
    licenseType: text('license_type').primaryKey(),
    pricePerSeatMonth: integer('price_per_seat_month').notNull(),
    hasFreeTier: boolean('has_free_tier').notNull().default(false),
  },
  (t) => [
    check('license_prices_price_check', sql`${t.pricePerSeatMonth} >= 0`),
    check(
      'license_prices_type_check',
      sql`${t.licenseType} in ('chorus','tle_creator','tle_teacher','chorus_optoma')`,
    ),
  ],
);

/** Credits sold in packs: a pack's size and its price in minor units. */
export const creditPacks = pgTable(
  'credit_packs',
  {
    credits: integer('credits').primaryKey(),
    price: integer('price').notNull(),
  },
  (t) => [
    check('credit_packs_credits_check', sql`${t.credits} > 0`),
    check('credit_packs_price_check', sql`${t.price} >= 0`),
  ],
);

/**
 * Each organization's invoice numbers, `INV-{code}-{0001}` (decision 010): a random code of its own and the
 * last number given, taken in the creating transaction, so its numbers have no gaps and tell nothing of others.
 */
export const invoiceSeries = pgTable(
  'invoice_series',
  {
    organizationId: uuid('organization_id')
      .primaryKey()
      .references(() => organizations.id),
    code: text('code').notNull(),
    last: integer('last').notNull(),
  },
  (t) => [
    uniqueIndex('invoice_series_code_key').on(t.code),
    check('invoice_series_code_check', sql`${t.code} ~ '^[A-Z2-9]{6}$'`),
    check('invoice_series_last_check', sql`${t.last} > 0`),
  ],
);

/**
 * An invoice (CONTRACT §7, decision 010): what it buys and its amount are fixed when it is created; a system
 * admin fulfils it once (the purchase's log entry is linked) or voids it. The database keeps a fulfilled or
 * void invoice as it is.
 */
export const invoices = pgTable(
  'invoices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    number: text('number').notNull(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    status: text('status').notNull().default('open'),
    kind: text('kind').notNull(),
    licenseType: text('license_type'),
    /** No reference: the invoice outlives a deleted licence. */
    licenseId: uuid('license_id'),
    period: text('period'),
    credits: integer('credits'),
    description: text('description').notNull(),
    customerEmail: text('customer_email').notNull(),
    /** The buyer's purchase-order number (CONTRACT §7), shown on the invoice; null without one. */
    purchaseOrder: text('purchase_order'),
    /**
     * A credits invoice: the pool of the organization its credits go to, as the buyer chose (issue 33). Null for
     * the other kinds, and for credits invoices made before the choice, which go to the protected pool.
     */
    creditPool: text('credit_pool'),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    licenseExpirationDays: integer('license_expiration_days'),
    extendUsersQuantity: integer('extend_users_quantity'),
    newUsersQuantity: integer('new_users_quantity'),
    /**
     * Added seats: the licence's expiry their months were priced up to. With `extend_users_quantity` (the
     * seats an extension priced), what a fulfilment checks the licence still matches (`409` otherwise).
     */
    licenseExpireAt: timestamp('license_expire_at', { withTimezone: true }),
    /** Whether the invoice was mailed to its customer (not beyond INVOICE_MAILS_PER_DAY to outside addresses). */
    mailed: boolean('mailed').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    dueDate: timestamp('due_date', { withTimezone: true }).notNull(),
    fulfilmentMethod: text('fulfilment_method'),
    fulfilledAt: timestamp('fulfilled_at', { withTimezone: true }),
    fulfilledBy: uuid('fulfilled_by').references(() => users.id, { onDelete: 'set null' }),
    /**
     * The licence log entry or the credit transaction the fulfilment wrote: each pays for one purchase. No
     * references: those logs are append-only (their truncate refusals stay theirs) and never lose a row.
     */
    licenseEventId: uuid('license_event_id'),
    creditTransactionId: uuid('credit_transaction_id'),
    voidedAt: timestamp('voided_at', { withTimezone: true }),
    voidedBy: uuid('voided_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('invoices_number_key').on(t.number),
    uniqueIndex('invoices_license_event_key').on(t.licenseEventId),
    uniqueIndex('invoices_credit_transaction_key').on(t.creditTransactionId),
    index('invoices_organization_idx').on(t.organizationId, t.createdAt),
    check('invoices_status_check', sql`${t.status} in ('open','fulfilled','void')`),
    check('invoices_kind_check', sql`${t.kind} in ('new_license','extend_license','add_users','credits')`),
    check('invoices_amount_check', sql`${t.amount} >= 0`),
    check(
      'invoices_fulfilled_check',
      sql`(${t.status} = 'fulfilled') = (${t.fulfilledAt} is not null and ${t.fulfilmentMethod} is not null
        and (${t.licenseEventId} is not null or ${t.creditTransactionId} is not null))`,
    ),
    check('invoices_void_check', sql`(${t.status} = 'void') = (${t.voidedAt} is not null)`),
    check(
      'invoices_credit_pool_check',
      sql`${t.creditPool} is null or (${t.kind} = 'credits' and ${t.creditPool} in ('shared','protected'))`,
    ),
  ],
);

// ── The classroom product (features/integration) ───────────────────────────────────────────────────────────

/**
 * Keys of the classroom product (CONTRACT §9): one organization's, acting in its subtree on the integration
 * calls only. The key is shown once; only its SHA-256 is kept (a random 32-byte secret needs no slow hash).
 * A revoked key stays listed nowhere and answers 401 at once: every request reads this row.
 */
export const integrationKeys = pgTable(
  'integration_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The key's first characters (`allot_sk_` and 6 more), to tell keys apart in a list. */
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedBy: uuid('revoked_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('integration_keys_hash_key').on(t.keyHash),
    index('integration_keys_organization_idx').on(t.organizationId, t.createdAt),
  ],
);

/**
 * Credits the classroom product consumed per organization and UTC day, kept in the consumption's
 * transaction in 16 slots (decision 016): the daily limit's check (issue 15) sums them under the
 * organization's advisory lock.
 */
export const consumptionDays = pgTable(
  'consumption_days',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    /** One of 16 rows a day, from the teacher's id: consumptions of one school do not queue on one row. */
    slot: smallint('slot').notNull().default(0),
    credits: bigint('credits', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.day, t.slot] }),
    check('consumption_days_credits_check', sql`${t.credits} >= 0`),
    check('consumption_days_slot_check', sql`${t.slot} between 0 and 15`),
  ],
);

// ── Insights: roll-ups, seat days and low-balance alerts (features/insights) ───────────────────────────────

/**
 * Journal transactions not yet rolled up into `credit_usage_days`: a trigger on `credit_transactions` adds
 * each new one in its own transaction (an insert of one small row, no shared row to wait for); the roll-up
 * job of any process claims them (`FOR UPDATE SKIP LOCKED`), rolls them up and deletes them in one
 * transaction, so each is counted once (decision 014, "Roll-up").
 */
export const creditUsageQueue = pgTable('credit_usage_queue', {
  transactionId: uuid('transaction_id').primaryKey(),
});

/**
 * The members' balances of each organization's subtree (decision 014, "Members' credits"): the part of a
 * forecast's `creditsAvailable` that is not a pool. Kept by the roll-up job from the journal's lines on members'
 * balances, never by a credit move's transaction (a district's row would be a hot row under consumption).
 */
export const subtreeMemberCredits = pgTable('subtree_member_credits', {
  organizationId: uuid('organization_id').primaryKey(),
  credits: bigint('credits', { mode: 'number' }).notNull().default(0),
});

/**
 * The credits in the pools of every organization strictly below each one (decision 016): kept by the roll-up
 * job from the journal's pool lines, never by a posting (every consumption from a shared pool would otherwise
 * update every ancestor up to the root). Read through `subtree_pool_credits_of(id)`, which adds the lines still
 * queued for the roll-up: exact when read.
 */
export const subtreePoolCredits = pgTable('subtree_pool_credits', {
  organizationId: uuid('organization_id').primaryKey(),
  credits: bigint('credits', { mode: 'number' }).notNull().default(0),
});

/**
 * Credits received, handed down and consumed per organization and UTC day, **for its whole subtree**
 * (decision 014): the chart and forecast of CONTRACT §10 read at most 365 rows of it. Migration 0018 makes
 * the key cover the figures (`INCLUDE`), which Drizzle cannot say: reads are index-only.
 */
export const creditUsageDays = pgTable(
  'credit_usage_days',
  {
    organizationId: uuid('organization_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    received: bigint('received', { mode: 'number' }).notNull().default(0),
    handedDown: bigint('handed_down', { mode: 'number' }).notNull().default(0),
    consumed: bigint('consumed', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.day] })],
);

/** The last UTC day a member consumed credits in an organization, kept by the roll-up job: idle seats. */
export const memberConsumption = pgTable(
  'member_consumption',
  {
    userId: uuid('user_id').notNull(),
    organizationId: uuid('organization_id').notNull(),
    lastConsumedOn: date('last_consumed_on', { mode: 'string' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.organizationId] })],
);

/**
 * Seats used and the maximum of each licence per UTC day, written by triggers on `memberships`,
 * `membership_invitations` and `licenses` in the statement that changes them (migration 0016). A day
 * without a row has the figures of the last row before it.
 */
export const licenseSeatDays = pgTable(
  'license_seat_days',
  {
    licenseId: uuid('license_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    used: integer('used').notNull(),
    maxUsers: integer('max_users').notNull(),
  },
  (t) => [primaryKey({ columns: [t.licenseId, t.day] })],
);

/**
 * Low-balance alerts of an organization's shared pool (CONTRACT §10). `post_credit_transaction` reads it
 * under the organization's row lock: a top-up (the shared pool grows) sets `reference_balance` to the pool
 * after it and re-arms every threshold; a posting that takes the pool below an armed threshold's level adds
 * the threshold's index to `fired` and a row to `credit_alert_events`, in the posting's transaction.
 */
export const creditAlertSettings = pgTable('credit_alert_settings', {
  organizationId: uuid('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  /** `[{kind: 'percent_of_last_topup' | 'credits', value}]`, at most 3. */
  thresholds: jsonb('thresholds').notNull().default([]),
  /** The shared pool right after the last top-up (or when the thresholds were set). */
  referenceBalance: bigint('reference_balance', { mode: 'number' }),
  /** Indexes into `thresholds` that fired since the last top-up. */
  fired: jsonb('fired').notNull().default([]),
  updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Outbox of crossed thresholds: the alert worker turns each into mails to the owner and admins, once. */
export const creditAlertEvents = pgTable('credit_alert_events', {
  id: uuid('id').primaryKey().defaultRandom(),
  organizationId: uuid('organization_id').notNull(),
  threshold: jsonb('threshold').notNull(),
  level: bigint('level', { mode: 'number' }).notNull(),
  balance: bigint('balance', { mode: 'number' }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

// ── Audit (features/audit) ─────────────────────────────────────────────────────────────────────────────────

/**
 * The audit log (CONTRACT §10, decision 014): every change made in an organization, one row per change,
 * written in the change's own transaction by `features/audit/record.ts`. Append-only (a trigger refuses
 * update and delete). `organization_id` is where the change was made; a viewer sees the rows of its subtree.
 * No references: the log outlives what it names (a deleted organization, licence or key); the actor's
 * name and email are read from `users` when shown.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    // Time-ordered (migration 0035): each insert goes to the right edge of the key's index.
    id: uuid('id').primaryKey().default(sql`time_ordered_uuid()`),
    seq: bigint('seq', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    organizationId: uuid('organization_id').notNull(),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    targetLabel: text('target_label').notNull().default(''),
    before: jsonb('before'),
    after: jsonb('after'),
    /** For `credits_moved`: the journal transaction, which the credit log lists under the same id. */
    creditTransactionId: uuid('credit_transaction_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('audit_events_seq_key').on(t.seq),
    index('audit_events_organization_idx').on(t.organizationId, t.seq),
    index('audit_events_actor_idx').on(t.actorId, t.seq),
    index('audit_events_created_idx').on(t.createdAt),
  ],
);

// ── Mail (features/mail) ───────────────────────────────────────────────────────────────────────────────────

/**
 * Mail waiting to go out, and the record of what went. Queued in the transaction of the change that
 * causes it; every server process's worker claims due rows (FOR UPDATE SKIP LOCKED) and retries with back-off.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body').notNull(),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('mail_outbox_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index('mail_outbox_sent_idx').on(t.sentAt).where(sql`${t.sentAt} is not null`),
    check('mail_outbox_status_check', sql`${t.status} in ('pending','sent','logged')`),
  ],
);

// ── Requests up the tree (features/requests) ───────────────────────────────────────────────────────────────

/**
 * Requests up the tree (CONTRACT §11, decision 017): an organization asks the organization directly above it
 * (kept as it was when asked) for credits into one of its pools or for seats of a licence type. The admins above
 * approve (the allocation goes through the credit journal or the licence ledger in the same transaction),
 * decline with a reason, or the asker cancels; each once, from `open`.
 */
export const organizationRequests = pgTable(
  'organization_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The asking organization. */
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    /** The organization asked: the asker's parent when the request was made. */
    parentOrganizationId: uuid('parent_organization_id')
      .notNull()
      .references(() => organizations.id),
    kind: text('kind').notNull(),
    amount: integer('amount').notNull(),
    /** credits: the pool they should land in. */
    pool: text('pool'),
    /** seats: the licence type. */
    licenseType: text('license_type'),
    note: text('note'),
    status: text('status').notNull().default('open'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Who approved, declined or cancelled it, and when. */
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    approvedAmount: integer('approved_amount'),
    /** declined: why. */
    reason: text('reason'),
  },
  (t) => [
    // Incoming (the parent's list, newest first) and outgoing (the asker's list; the day's count of the limit).
    index('organization_requests_incoming_idx').on(t.parentOrganizationId, t.createdAt.desc()),
    index('organization_requests_outgoing_idx').on(t.organizationId, t.createdAt.desc()),
    // The open ones asked of an organization: its badge, and the list of those still to decide.
    index('organization_requests_open_incoming_idx')
      .on(t.parentOrganizationId, t.createdAt.desc())
      .where(sql`${t.status} = 'open'`),
    check('organization_requests_kind_check', sql`${t.kind} in ('credits','seats')`),
    check(
      'organization_requests_status_check',
      sql`${t.status} in ('open','approved','declined','cancelled')`,
    ),
    check('organization_requests_pool_check', sql`${t.pool} is null or ${t.pool} in ('shared','protected')`),
    check(
      'organization_requests_license_type_check',
      sql`${t.licenseType} is null or ${t.licenseType} in ('chorus','tle_creator','tle_teacher','chorus_optoma')`,
    ),
    check(
      'organization_requests_what_check',
      sql`(${t.kind} = 'credits' and ${t.pool} is not null and ${t.licenseType} is null)
        or (${t.kind} = 'seats' and ${t.licenseType} is not null and ${t.pool} is null)`,
    ),
    check('organization_requests_amount_check', sql`${t.amount} > 0`),
    check(
      'organization_requests_approved_check',
      sql`(${t.status} = 'approved') = (${t.approvedAmount} is not null)
        and (${t.approvedAmount} is null or (${t.approvedAmount} > 0 and ${t.approvedAmount} <= ${t.amount}))`,
    ),
    check(
      'organization_requests_declined_check',
      sql`(${t.status} = 'declined') = (${t.reason} is not null)`,
    ),
    check('organization_requests_decided_check', sql`(${t.status} = 'open') = (${t.decidedAt} is null)`),
    check('organization_requests_parent_check', sql`${t.parentOrganizationId} <> ${t.organizationId}`),
  ],
);
