/** The exact texts of the spec (§5 and §8). Never reword them: clients and tests match on them. */

export const MSG = {
  required: 'Field is required.',
  invalidEmail: 'Invalid e-mail.',
  phoneMinDigits: (count: number) => `Phone number must contain at least ${count} digits`,
  onlyNumbers: 'Field must contain only numbers',
  mustDiffer: (value: string, otherValue: string) => `${value} must be different from ${otherValue}.`,
  /** `count` as a number, or as a screen writes it ("20,000"). */
  max: (count: number | string) => `Number must be less than or equal to ${count}.`,
  min: (count: number) => `Number must be greater than or equal to ${count}.`,
  fieldsDontMatch: "Fields don't match",
  creditsGreaterThanZero: 'Enter a number greater than zero in the set credits.',
  notEnoughCredits: (pool: 'protected' | 'shared') => `Not enough available credits in ${pool} pool.`,
  notEnoughLicenses: (type: string) => `Not enough available ${type} licenses.`,
  sourceOnlyHas: (source: string, availableCredits: number) =>
    `${source} only has ${availableCredits} credits available. Please reduce the credits to transfer.`,
  invalidNumber: 'Invalid number',
  sourceMissing: (type: string) => `Source ${type} missing`,
  targetMissing: (type: string) => `Target ${type} missing`,

  bulkLicenceLimit:
    'You are trying to add users more than that is allowed in the license. Only some users were added.',
  bulkImportFailed: 'There was a hiccup in adding users from the CSV file. Make sure the data is correct.',
  emailTaken: 'This email is already registered. Please use a different one.',

  signInFailed: 'Unable to sign in. Please check your credentials and try again.',
  notVerified: 'Your account is not verified, please check your email and verify.',
  somethingWentWrong: 'Something went wrong, please try again later.',

  resetRequestFailed: 'Could not process request, please try again',
  resetCodeNotVerified: 'Reset code could not be verified',
  resetFailed: 'Unable to reset password',

  invoiceInvalid: 'The invoice could not be created due to invalid data. Please try again.',
  invoiceNotLoggedIn: 'You are not logged in. Please log in and try again.',
  invoiceServerError: 'The server could not create the invoice. Please try again later.',

  unsuccessful: 'Unsuccessful',
  creditsNotSent: 'Credits could not be sent',
  creditsNotReclaimed: 'Credits could not be reclaimed',
  licensesNotSent: 'Licenses could not be sent',
  licensesNotReclaimed: 'Licenses could not be reclaimed',

  noSearchResults: 'No search results found. Please try again.',
  verificationFailed: 'Email verification could not be completed',
} as const;

/** Texts the spec leaves open, decided here once (see docs/decisions). */
export const APP_MSG = {
  noPanelAccess:
    'Teachers sign in to the classroom product. This panel is for organization owners and admins.',
  /** Sign-in refused for a while (`429`): the wait, in seconds up to a minute, else in whole minutes. */
  tooManyAttempts: (seconds: number) => {
    const minutes = Math.ceil(seconds / 60);
    const wait =
      seconds < 60
        ? `${seconds} ${seconds === 1 ? 'second' : 'seconds'}`
        : `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
    return `Too many sign-in attempts. Please wait ${wait} and try again.`;
  },
  unauthorized: 'You are not signed in or your session has expired. Please sign in again.',
  forbidden: 'You do not have permission to do this.',
  notFound: 'Not found.',
  invalidInput: 'Some fields are not valid.',
  internal: 'Something went wrong, please try again later.',
  passwordTooShort: 'Password must be at least 10 characters.',
  codeFormat: 'Enter the 6-digit code from the email.',
  tooManyCodeAttempts: 'Too many attempts. Please wait 15 minutes and try again.',
  passwordRequired: 'Choose a password to finish setting up your account.',
  noFreeSeat: 'There is no free licence seat left in this organization.',
  onlyOwnerMakesOwner: 'Only an owner can make someone the owner of an organization.',
  roleTooHigh: 'You can only give roles up to your own.',
  strongerMember: 'You cannot change a member whose role is above yours.',
  accountManagedElsewhere:
    'This person also belongs to an organization you do not manage. Only they, or someone who manages all of their organizations, can change their name or email.',
  ownerRoleChanges: 'The owner stays owner until another member is made the owner.',
  ownerCannotBeRemoved: 'The owner cannot be removed. Make another member the owner first.',
  rootDeleteSystemAdminOnly: 'Only a system admin can delete a top-level organization.',
  unknownLicense: 'This licence does not belong to the organization.',
  oddCharacter: 'This text contains a character that is not allowed (a NUL or a broken character).',
  notOneLine: 'Must not contain line breaks or control characters.',
  controlCharacter: 'Must not contain control characters.',
  invalidId: 'This is not a valid id.',
  invalidValue: 'Invalid value.',
  tooLong: (count: number) => `At most ${count.toLocaleString('en-US')} characters.`,
  tooMany: (count: number) => `At most ${count.toLocaleString('en-US')} items.`,
  bodyTooLarge: 'The request is too large: at most 1 MB, or 16 MB for an import.',
  notJson: 'Send the body as JSON (Content-Type: application/json).',
  unreadableRequest: 'The request could not be read: send its body as valid JSON.',
  bodyNotObject: 'The body must be a JSON object with the fields of this call.',
  invalidPath: 'This address is not valid.',
  tooManyRequests: 'Too many requests. Please wait a moment and try again.',
  invitationNotAccepted: 'The invitation could not be accepted. Check the code, or ask for a new one.',
  emailChangeNotConfirmed:
    'The new email could not be confirmed. Check the code, or ask for the change again.',
  invitedAddressFixed:
    'This person has not accepted the invitation yet and keeps the address it went to. To use another address, cancel the invitation and invite that one.',
  emailChangeNotAllowed:
    'Only the account itself, or someone above it in every organization it belongs to, can change its email.',
  tooManyInvitations: (limit: number) =>
    `This organization has reached its limit of ${limit.toLocaleString('en-US')} invitations a day. Please try again tomorrow.`,
  tooManyImports: 'Too many imports in a short time. Please wait a few minutes and try again.',
  // Neither says a mail was delivered: without SMTP_URL nothing is (issue 33, item 2).
  tooManyResends:
    'Too many invitations asked for again in a short time. Please wait a few minutes and try again.',
  resentRecently:
    'This person’s invitation was asked for again several times in the last minutes. Please wait a few minutes before asking again.',
  concurrentChange: 'Someone changed this at the same moment. Please try again.',
  transferOrganizationAmbiguous:
    'Both people belong to several organizations you manage. Choose the organization whose credits move.',
  /** How a log names a person who is not a member of the organization's subtree (CONTRACT §5). */
  someoneOutside: 'Someone outside this organization',
  /** The sign-in screen after a session ended in the middle of the work (issue 33), under "Your session ended". */
  sessionEnded: 'Sign in again to go on where you were.',
  /** …and a change was refused with it: the server checks the session before anything (CONTRACT §1). */
  sessionEndedUnsaved: 'Your last change was not saved. Sign in again to go back and make it.',
  databaseUnavailable:
    'The service is briefly unavailable. Nothing was changed; please try again in a moment.',
  commitOutcomeUnknown:
    'The connection was lost while this change was being saved, so it may or may not have been saved. Check before trying again; a request sent again with the same Idempotency-Key is never applied twice.',
} as const;
