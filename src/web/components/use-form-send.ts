// The sending of a form the visitor fills in (contact, withdrawal): its checks load first, a second press
// while one is unanswered does nothing, and what goes wrong shows as a field's error or the form's.
import { useRef, useState, type FormEvent } from 'react';
import { ApiError } from '../lib/api.js';
import type { FieldErrors, FormCheck } from '../lib/form-checks.js';
import { useI18n } from '../lib/i18n.js';

export interface FormSendOptions<Field extends string, T> {
  /** The form's check of its current values (checkForm with the form's schema). */
  check: () => Promise<FormCheck<T>>;
  /** Sends the checked values; what it throws is shown. */
  send: (data: T) => Promise<void>;
  /** The form's error texts: its checks could not load or the sending failed, or too many were sent. */
  errorKeys: { failed: string; rateLimited: string };
  /** The errors the form shows of those its check found; all of them unless given. */
  shownErrors?: (fields: FieldErrors) => Partial<Record<Field, string>>;
  initialErrors?: Partial<Record<Field, string>>;
  initialFormError?: string | null;
}

export function useFormSend<Field extends string, T>(options: FormSendOptions<Field, T>) {
  const { t } = useI18n();
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>(options.initialErrors ?? {});
  const [formError, setFormError] = useState<string | null>(options.initialFormError ?? null);
  const [busy, setBusy] = useState(false);
  // Sent and not yet answered (the checks may still be loading): a second press does nothing.
  const sending = useRef(false);

  /** A field was edited: its error and the form's clear. */
  const clearError = (field: Field) => {
    setErrors((e) => ({ ...e, [field]: undefined }));
    setFormError(null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (sending.current) return;
    sending.current = true;
    try {
      const checked = await options.check();
      if (checked.status === 'unavailable') {
        setFormError(t(options.errorKeys.failed));
        return;
      }
      if (checked.status === 'invalid') {
        setErrors(options.shownErrors ? options.shownErrors(checked.fields) : (checked.fields as Partial<Record<Field, string>>));
        return;
      }
      setBusy(true);
      try {
        await options.send(checked.data);
      } catch (caught) {
        if (caught instanceof ApiError && Object.keys(caught.fields).length) setErrors(caught.fields as Partial<Record<Field, string>>);
        else setFormError(t(caught instanceof ApiError && caught.code === 'rateLimited' ? options.errorKeys.rateLimited : options.errorKeys.failed));
      } finally {
        setBusy(false);
      }
    } finally {
      sending.current = false;
    }
  };

  return { errors, setErrors, formError, busy, clearError, submit };
}
