import { type ReactNode, useState } from 'react';
import { FormAlert } from '../../../components/form-alert';
import { isApiError } from '../../../lib/api-error';
import { serverFieldErrors } from '../../../lib/form-errors';
import { AuthCard } from './auth-card';
import { CodeForm } from './code-form';
import { NewPasswordForm } from './new-password-form';

interface CodeStepsProps {
  title: string;
  description: ReactNode;
  codeLabel: string;
  submitLabel: string;
  failureTitle: string;
  /** The text of a refused code (a 429 shows its own). */
  failureText: string;
  /** Fields before the code (the address it went to). */
  before?: ReactNode;
  /** Below the form: a new code, the way back. */
  below?: ReactNode;
  /** The account's address, for the password manager, and shown on the password step. */
  email: string;
  passwordSubmitLabel: string;
  /** The password step's sentence, when the default ("the password you will sign in with") would mislead. */
  passwordDescription?: ReactNode;
  /** Sends the code (and, on the second step, the new password); throws the API's error. */
  submit: (code: string, password?: string) => Promise<void>;
  /** After the server took the code (with the password when one was asked for). */
  onDone: (password: string | undefined) => Promise<void> | void;
  /** Checks that must hold before the code is sent (e.g. a valid email typed); false stops. */
  ready?: () => boolean;
  /**
   * The mail's link says the account has no password yet: the code goes with the new password, not alone
   * first to be told `password_required`. A refused code brings the code step back with the error.
   */
  passwordFirst?: boolean;
}

/**
 * The two steps of every code from a mail (verification, invitation, email change): the code; then, when
 * the server answers `password_required` (the account has none yet), a new password with the same code.
 */
export function CodeSteps(props: CodeStepsProps) {
  const [passwordFor, setPasswordFor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const failure = (cause: unknown) =>
    isApiError(cause) && cause.status === 429 ? cause.message : props.failureText;
  const alert = error && <FormAlert title={props.failureTitle}>{error}</FormAlert>;

  async function submitCode(code: string) {
    setError(null);
    if (props.ready && !props.ready()) return;
    if (props.passwordFirst) {
      setPasswordFor(code);
      return;
    }
    try {
      await props.submit(code);
    } catch (cause) {
      if (isApiError(cause) && cause.code === 'password_required') setPasswordFor(code);
      else setError(failure(cause));
      return;
    }
    await props.onDone(undefined);
  }

  async function submitPassword(code: string, password: string) {
    setError(null);
    setPasswordError(null);
    try {
      await props.submit(code, password);
    } catch (cause) {
      const onPassword = serverFieldErrors(cause).password;
      if (onPassword) setPasswordError(onPassword);
      else {
        setError(failure(cause));
        // The code itself was refused (sent with the password at once): it is typed again on the code step.
        if (props.passwordFirst) setPasswordFor(null);
      }
      return;
    }
    await props.onDone(password);
  }

  if (passwordFor !== null) {
    return (
      <AuthCard
        title="Choose your password"
        description={
          // With the password first, the code is only checked when the password is sent with it.
          props.passwordDescription ??
          (props.email ? (
            <>
              {props.passwordFirst ? 'Your account is new.' : 'Your code was accepted.'} Choose the password
              you will sign in with as <strong>{props.email}</strong>.
            </>
          ) : (
            `${props.passwordFirst ? 'Your account is new.' : 'Your code was accepted.'} Choose the password you will sign in with.`
          ))
        }
      >
        <NewPasswordForm
          submitLabel={props.passwordSubmitLabel}
          email={props.email}
          passwordError={passwordError}
          alert={alert}
          onSubmit={(password) => submitPassword(passwordFor, password)}
        />
      </AuthCard>
    );
  }

  return (
    <AuthCard title={props.title} description={props.description}>
      <CodeForm
        label={props.codeLabel}
        submitLabel={props.submitLabel}
        alert={alert}
        before={props.before}
        onSubmit={submitCode}
      />
      {props.below}
    </AuthCard>
  );
}
