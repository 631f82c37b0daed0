import { createBrowserRouter } from 'react-router';
import { OrganizationError } from '../features/organizations/components/organization-error';
import { setUnauthorizedHandler } from '../lib/api-client';
import { organizationLoader } from './guards/organization-loader';
import { requireAuthLoader, signedOutOnlyLoader } from './guards/session-guards';
import { FullPageLoader } from './root/full-page-loader';
import { RootErrorBoundary } from './root/root-error-boundary';
import { RootLayout } from './root/root-layout';

const alwaysRevalidate = () => true;

export const router = createBrowserRouter([
  {
    id: 'root',
    Component: RootLayout,
    HydrateFallback: FullPageLoader,
    ErrorBoundary: RootErrorBoundary,
    children: [
      {
        lazy: async () => ({ Component: (await import('./layouts/public-layout')).PublicLayout }),
        children: [
          {
            path: 'login',
            loader: signedOutOnlyLoader,
            lazy: async () => ({
              Component: (await import('../features/auth/components/login-screen')).LoginScreen,
            }),
          },
          {
            path: 'forgot',
            loader: signedOutOnlyLoader,
            lazy: async () => ({
              Component: (await import('../features/auth/components/forgot-password-screen'))
                .ForgotPasswordScreen,
            }),
          },
          {
            path: 'password/token/:userId/:token',
            loader: signedOutOnlyLoader,
            lazy: async () => ({
              Component: (await import('../features/auth/components/reset-password-screen'))
                .ResetPasswordScreen,
            }),
          },
          {
            path: 'register/verify',
            loader: signedOutOnlyLoader,
            lazy: async () => ({
              Component: (await import('../features/auth/components/register-verify-screen'))
                .RegisterVerifyScreen,
            }),
          },
          // From a mail, signed in or not: the code is the proof (CONTRACT §3).
          {
            path: 'invitation',
            lazy: async () => ({
              Component: (await import('../features/auth/components/accept-invitation-screen'))
                .AcceptInvitationScreen,
            }),
          },
          {
            path: 'email/confirm/:userId/:token',
            lazy: async () => ({
              Component: (await import('../features/auth/components/confirm-email-screen'))
                .ConfirmEmailScreen,
            }),
          },
          // The footer's pages (issue 36): signed in or not.
          {
            path: 'help',
            lazy: async () => ({
              Component: (await import('../features/help/components/help-screen')).HelpScreen,
            }),
          },
          {
            path: 'faq',
            lazy: async () => ({
              Component: (await import('../features/help/components/faq-screen')).FaqScreen,
            }),
          },
          {
            path: 'cookies',
            lazy: async () => ({
              Component: (await import('../features/help/components/cookies-screen')).CookiesScreen,
            }),
          },
          {
            path: 'contact',
            lazy: async () => ({
              Component: (await import('../features/public-config/components/published-page')).ContactPage,
            }),
          },
          {
            path: 'terms',
            lazy: async () => ({
              Component: (await import('../features/public-config/components/published-page')).TermsPage,
            }),
          },
          {
            path: 'privacy',
            lazy: async () => ({
              Component: (await import('../features/public-config/components/published-page')).PrivacyPage,
            }),
          },
          {
            id: 'protected-public',
            loader: requireAuthLoader,
            shouldRevalidate: alwaysRevalidate,
            children: [
              {
                index: true,
                lazy: async () => ({
                  Component: (await import('./routes/home-screen')).HomeScreen,
                }),
              },
              // The signed-in person's own account: two-factor sign-in (decision 015).
              {
                path: 'account',
                lazy: async () => ({
                  Component: (await import('../features/auth/components/account-security-screen'))
                    .AccountSecurityScreen,
                }),
              },
              // What this installation mailed or keeps (issue 33): system admins, codes included.
              {
                path: 'mail-outbox',
                lazy: async () => ({
                  Component: (await import('../features/mail/components/mail-outbox-screen'))
                    .MailOutboxScreen,
                }),
              },
              // The billing queue: every organization's invoices, for system admins (CONTRACT §7, issue 33).
              {
                path: 'billing',
                lazy: async () => ({
                  Component: (await import('../features/invoices/components/billing-screen')).BillingScreen,
                }),
              },
              // The price list is not an organization's: system admins change it (decision 011).
              {
                path: 'price-list',
                lazy: async () => ({
                  Component: (await import('../features/price-list/components/price-list-screen'))
                    .PriceListScreen,
                }),
              },
            ],
          },
        ],
      },
      {
        id: 'protected-dashboard',
        loader: requireAuthLoader,
        shouldRevalidate: alwaysRevalidate,
        children: [
          {
            id: 'organization',
            path: ':organization',
            loader: organizationLoader,
            // Static, not lazy: the boundary must be known whenever the organization fails to load.
            ErrorBoundary: OrganizationError,
            lazy: async () => ({ Component: (await import('./layouts/dashboard-layout')).DashboardLayout }),
            children: [
              {
                index: true,
                lazy: async () => ({
                  Component: (await import('./routes/general-information-screen')).GeneralInformationScreen,
                }),
              },
              {
                path: 'licenses',
                lazy: async () => ({
                  Component: (await import('./routes/licenses-screen')).LicensesScreen,
                }),
              },
              {
                path: 'invoices/:invoiceId',
                lazy: async () => ({
                  Component: (await import('../features/invoices/components/invoice-screen')).InvoiceScreen,
                }),
              },
              {
                path: 'users',
                lazy: async () => ({
                  Component: (await import('./routes/users-screen')).UsersScreen,
                }),
              },
              {
                path: 'sub-organizations',
                lazy: async () => ({
                  Component: (await import('./routes/sub-organizations-screen')).SubOrganizationsScreen,
                }),
              },
              {
                path: 'requests',
                lazy: async () => ({
                  Component: (await import('../features/requests/components/requests-screen')).RequestsScreen,
                }),
              },
              {
                path: 'credit-log',
                lazy: async () => ({
                  Component: (await import('../features/credit-log/components/credit-log-screen'))
                    .CreditLogScreen,
                }),
              },
              {
                path: 'audit-log',
                lazy: async () => ({
                  Component: (await import('../features/audit-log/components/audit-log-screen'))
                    .AuditLogScreen,
                }),
              },
              {
                path: '*',
                lazy: async () => ({ Component: (await import('./routes/not-found')).NotFoundRoute }),
              },
            ],
          },
        ],
      },
    ],
  },
]);

// Any authenticated call answered 401 has cleared the session: go to the sign-in screen.
setUnauthorizedHandler(() => {
  if (window.location.pathname !== '/login') void router.navigate('/login', { replace: true });
});
