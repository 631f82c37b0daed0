import type { Role } from '@allot/domain/roles';

/** The demo sign-ins `npm run seed:demo` creates (README lists them; browser tests use them). */
export const DEMO_PASSWORD = 'allot-demo-2026';

export interface DemoAccount {
  email: string;
  name: string;
  role: Exclude<Role, 'system_admin'>;
  organization: string;
  /** false: the email is not verified yet, so sign-in offers to resend the verification. */
  verified?: boolean;
}

export const DEMO_ROOT = 'Riverside District';

export const DEMO_ACCOUNTS: DemoAccount[] = [
  {
    email: 'owner@riverside.test',
    name: 'Olivia Owens',
    role: 'organization_owner',
    organization: DEMO_ROOT,
  },
  { email: 'admin@riverside.test', name: 'Adam Reyes', role: 'organization_admin', organization: DEMO_ROOT },
  {
    email: 'admin@northside.test',
    name: 'Nora Patel',
    role: 'organization_admin',
    organization: 'Northside Elementary',
  },
  {
    email: 'admin@lakeside.test',
    name: 'Liam Chen',
    role: 'organization_admin',
    organization: 'Lakeside Middle',
  },
  {
    email: 'teacher@northside.test',
    name: 'Tess Morgan',
    role: 'user',
    organization: 'Northside Elementary',
  },
  {
    email: 'teacher2@northside.test',
    name: 'Omar Haddad',
    role: 'user',
    organization: 'Northside Elementary',
  },
  { email: 'teacher@annex.test', name: 'Ana Silva', role: 'user', organization: 'Northside Annex' },
  { email: 'teacher@lakeside.test', name: 'Leo Novak', role: 'user', organization: 'Lakeside Middle' },
  { email: 'teacher@hillcrest.test', name: 'Hana Kim', role: 'user', organization: 'Hillcrest High' },
  {
    email: 'pending@hillcrest.test',
    name: 'Priya Shah',
    role: 'organization_admin',
    organization: 'Hillcrest High',
    verified: false,
  },
];
