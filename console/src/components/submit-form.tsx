import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { ErrorAlert, PageTitle } from './ui.js';

/** The error fields the account pages show beside their inputs (any other error is shown above the form). */
export const ACCOUNT_FIELDS = ['email', 'password', 'name', 'organization_name'] as const;

/** A form that sends one request: its error and whether it is on its way. */
export interface Submission {
  readonly error: unknown;
  readonly busy: boolean;
  onSubmit(e: Event): Promise<void>;
}

/**
 * The submit handling every account form shares: clears the last error, is busy while `send` runs, keeps the API's
 * error for the alert and the fields. `send` resolves `true` when it has moved the page on: the form then stays busy
 * (a second click must not send twice); otherwise it is free again.
 */
export function useSubmit(send: () => Promise<boolean>): Submission {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  return {
    error,
    busy,
    async onSubmit(e: Event) {
      e.preventDefault();
      setBusy(true);
      setError(null);
      try {
        if (!(await send())) setBusy(false);
      } catch (err) {
        setError(err);
        setBusy(false);
      }
    },
  };
}

/** The error above the form, the fields, and the submit button (with its busy label while the request is out). */
export function SubmitForm({
  submission,
  label,
  busyLabel,
  fields = ACCOUNT_FIELDS,
  children,
}: {
  submission: Submission;
  label: string;
  busyLabel?: string;
  fields?: readonly string[];
  children: ComponentChildren;
}) {
  return (
    <>
      <ErrorAlert error={submission.error} fields={fields} />
      <form class="card" noValidate onSubmit={submission.onSubmit}>
        {children}
        <div class="actions">
          <button class="primary" type="submit" disabled={submission.busy}>
            {submission.busy && busyLabel ? busyLabel : label}
          </button>
        </div>
      </form>
    </>
  );
}

/** The signed-out pages' frame: the brand and the page's title. */
export function AuthPage({ title, lede, children }: { title: string; lede?: ComponentChildren; children: ComponentChildren }) {
  return (
    <main class="auth-page">
      <span class="brand">Kit</span>
      <PageTitle title={title} lede={lede} />
      {children}
    </main>
  );
}
