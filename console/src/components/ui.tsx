import type { ComponentChildren, InputHTMLAttributes, TextareaHTMLAttributes } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { ApiError, messageOf } from '../api/client.js';
import { fieldError } from './field-error.js';

export { fieldError, lineError } from './field-error.js';

/** A view's heading: sets the document title and takes focus after navigation, so screen readers announce the view. */
export function PageTitle({ title, lede }: { title: string; lede?: ComponentChildren }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · Kit console`;
    ref.current?.focus({ preventScroll: false });
  }, [title]);
  return (
    <>
      <h1 tabIndex={-1} ref={ref}>
        {title}
      </h1>
      {lede ? <p class="lede">{lede}</p> : null}
    </>
  );
}

/**
 * An error as a person reads it: the server's message, its code and request id for support. Errors about one of
 * `fields` are shown beside that field instead (Field's `error`), not twice.
 */
export function ErrorAlert({ error, title, fields = [] }: { error: unknown; title?: string; fields?: readonly string[] }) {
  if (!error) return null;
  if (fields.length > 0 && fieldError(error, ...fields)) return null;
  const api = error instanceof ApiError ? error : null;
  return (
    <div class="alert error" role="alert">
      {title ? <strong>{title} </strong> : null}
      {messageOf(error)}
      {api && api.code !== 'network_error' ? (
        <div class="code">
          {api.code}
          {api.requestId ? ` · request ${api.requestId}` : ''}
        </div>
      ) : null}
    </div>
  );
}

export function Notice({ kind = 'ok', children }: { kind?: 'ok' | 'info' | 'warn'; children: ComponentChildren }) {
  return (
    <div class={`alert ${kind}`} role="status">
      {children}
    </div>
  );
}

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'label' | 'onInput' | 'type' | 'value'> & {
  label: string;
  hint?: ComponentChildren;
  error?: string | null | undefined;
  value: string;
  onValue(value: string): void;
  type?: string;
  multiline?: boolean;
};

/** A labelled input whose hint and error are tied to it (aria-describedby, aria-invalid). */
export function Field({ label, hint, error, value, onValue, type = 'text', multiline, ...rest }: InputProps) {
  const id = useId();
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    value,
    'aria-invalid': error ? ('true' as const) : undefined,
    'aria-describedby': describedBy,
    onInput: (e: Event) => onValue((e.currentTarget as HTMLInputElement).value),
  };
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {multiline ? (
        <textarea {...(common as TextareaHTMLAttributes<HTMLTextAreaElement>)} {...(rest as TextareaHTMLAttributes<HTMLTextAreaElement>)} />
      ) : (
        // Preact 11 types each input type's attributes apart; this input's type is a prop.
        <input {...({ ...rest, ...common, type } as unknown as InputHTMLAttributes<HTMLInputElement>)} />
      )}
      {hint ? (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A select with its label. */
export function Select<T extends string>({ label, value, options, onValue, hint, disabled }: { label: string; value: T; options: readonly (readonly [NoInfer<T>, string])[]; onValue(v: NoInfer<T>): void; hint?: string; disabled?: boolean }) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} value={value} disabled={disabled} aria-describedby={hint ? `${id}-hint` : undefined} onChange={(e) => onValue((e.currentTarget as HTMLSelectElement).value as T)}>
        {options.map(([v, text]) => (
          <option value={v} key={v}>
            {text}
          </option>
        ))}
      </select>
      {hint ? (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}


/**
 * A confirmation in a native modal <dialog> (focus moves in, Tab stays in, Escape cancels, focus returns).
 * `confirm` runs the action; its failure is shown inside the dialog.
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  danger,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  children: ComponentChildren;
  confirmLabel: string;
  danger?: boolean;
  onConfirm(): Promise<void>;
  onClose(): void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      setError(null);
      dialog.showModal();
    } else if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} aria-labelledby={titleId} onClose={onClose}>
      <h2 id={titleId}>{title}</h2>
      {children}
      <ErrorAlert error={error} />
      <div class="actions">
        <button
          type="button"
          class={danger ? 'danger solid' : 'primary'}
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            setError(null);
            try {
              await onConfirm();
              ref.current?.close();
            } catch (err) {
              setError(err);
            } finally {
              setBusy(false);
            }
          }}
        >
          {confirmLabel}
        </button>
        <button type="button" onClick={() => ref.current?.close()}>
          Cancel
        </button>
      </div>
    </dialog>
  );
}

/** Copies text to the clipboard and says so (to screen readers too). */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [done, setDone] = useState<'copied' | 'failed' | null>(null);
  return (
    <>
      <button
        type="button"
        onClick={async () => {
          try {
            await navigator.clipboard.writeText(text);
            setDone('copied');
          } catch {
            setDone('failed');
          }
          setTimeout(() => setDone(null), 2500);
        }}
      >
        {done === 'copied' ? 'Copied' : label}
      </button>
      <span class="visually-hidden" role="status">
        {done === 'copied' ? 'Copied to the clipboard' : done === 'failed' ? 'Copy failed: select the text and copy it' : ''}
      </span>
    </>
  );
}

/** A column heading: its text, or `{ label, num: true }` for a right-aligned number; `false`/`null` leaves it out. */
export type Column = string | { label: string; num: true } | false | null;

/**
 * A table with column headings and `children` as its body rows. It scrolls sideways on narrow screens; the region
 * is focusable so keyboards can scroll it.
 */
export function TableWrap({ label, columns, children }: { label: string; columns: readonly Column[]; children: ComponentChildren }) {
  return (
    <div class="table-wrap" role="region" aria-label={label} tabIndex={0}>
      <table>
        <thead>
          <tr>
            {columns.map((c) =>
              !c ? null : typeof c === 'string' ? (
                <th scope="col">{c}</th>
              ) : (
                <th scope="col" class="num">
                  {c.label}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p class="muted" role="status">
      <span class="spinner inline" aria-hidden="true" />
      {label}
    </p>
  );
}

/** A relative, human time with the exact UTC time in a tooltip. */
export function When({ iso, empty = 'never' }: { iso: string | null | undefined; empty?: string }) {
  if (!iso) return <span class="muted">{empty}</span>;
  const date = new Date(iso);
  return <time dateTime={iso} title={date.toUTCString()}>{relative(date)}</time>;
}

function relative(date: Date): string {
  const seconds = Math.round((date.getTime() - Date.now()) / 1000);
  const abs = Math.abs(seconds);
  const rtf = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
  if (abs < 60) return rtf.format(Math.round(seconds), 'second');
  if (abs < 3600) return rtf.format(Math.round(seconds / 60), 'minute');
  if (abs < 86_400) return rtf.format(Math.round(seconds / 3600), 'hour');
  if (abs < 30 * 86_400) return rtf.format(Math.round(seconds / 86_400), 'day');
  return date.toLocaleDateString('en', { year: 'numeric', month: 'short', day: 'numeric' });
}
