// "Vertrag widerrufen" (§ 356a BGB): name, order number or id, e-mail, then "Widerruf bestätigen", then the
// receipt with date and time. No login; the server checks the form again and keeps the declaration.
// The page is sent without the client application: the form posts to /widerruf, and the server answers with
// this page again, holding its errors or the receipt (withdrawal-answer.ts). Where the application does run
// on it (a service needing consent is configured), the form is sent by script to the API instead.
import { useContext, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { formatDate, formatTime } from '../../../domain/dates.js';
import { WITHDRAWAL_LIMITS } from '../../../domain/validation-rules.js';
import type { WithdrawalForm } from '../../../domain/validation.js';
import { useFormSend } from '../../components/use-form-send.js';
import { api } from '../../lib/api.js';
import { checkForm, loadChecksOnUse } from '../../lib/form-checks.js';
import { useI18n } from '../../lib/i18n.js';
import { WithdrawalAnswerContext, type WithdrawalField as Field, type WithdrawalReceipt as Receipt } from './withdrawal-answer.js';

export function WithdrawalPage() {
  const { t, language } = useI18n();
  const [params] = useSearchParams();
  // The server's answer to the form sent without script (rendered on the server only).
  const answer = useContext(WithdrawalAnswerContext);
  const [values, setValues] = useState(answer?.values ?? { name: '', reference: params.get('order') ?? '', email: '' });
  const [receipt, setReceipt] = useState<Receipt | null>(answer?.receipt ?? null);
  const heading = useRef<HTMLHeadingElement>(null);
  const { errors, formError, busy, clearError, submit } = useFormSend<Field, WithdrawalForm>({
    check: () => checkForm((schemas) => schemas.withdrawalFormSchema, values),
    send: async (data) => {
      const answer = await api<Omit<Receipt, 'email'>>('/api/withdrawals', { method: 'POST', body: { ...data, language } });
      setReceipt({ ...answer, email: data.email });
      requestAnimationFrame(() => heading.current?.focus());
    },
    errorKeys: { failed: 'withdrawal.errors.failed', rateLimited: 'withdrawal.errors.rateLimited' },
    initialErrors: answer?.errors,
    initialFormError: answer?.formError ? t(`withdrawal.errors.${answer.formError}`) : null,
  });

  const change = (field: Field, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    clearError(field);
  };

  // Sent without script, the form goes to the page's own address; the answer comes in the language it names.
  const formAction = '/widerruf';

  if (receipt) {
    const at = new Date(receipt.receivedAt);
    const time = formatTime(at, language);
    return (
      <div className="page page--narrow">
        <section className="card withdrawal-receipt" aria-labelledby="withdrawal-receipt-title" data-testid="withdrawal-receipt">
          <h1 id="withdrawal-receipt-title" ref={heading} tabIndex={-1}>
            {t('withdrawal.receiptTitle')}
          </h1>
          <p>
            <strong>{t('withdrawal.receiptReceived', { date: formatDate(at, language), time })}</strong>
          </p>
          <p className="withdrawal-receipt__statement">{t('withdrawal.statement')}</p>
          <p>{t(`withdrawal.outcome.${receipt.outcome}`, { deadline: receipt.deadline ? formatDate(receipt.deadline, language) : '' })}</p>
          {receipt.outcome !== 'received' && <p>{t('withdrawal.receiptMailed', { email: receipt.email })}</p>}
          {answer?.receipt ? (
            <a className="button button--secondary" href={formAction}>
              {t('withdrawal.another')}
            </a>
          ) : (
            <button type="button" className="button button--secondary" onClick={() => setReceipt(null)}>
              {t('withdrawal.another')}
            </button>
          )}
        </section>
      </div>
    );
  }

  // The server's answer with errors opens on the first field in error (its label and error are read out with it).
  const firstInError = answer?.errors ? (['name', 'reference', 'email'] as const).find((name) => answer.errors?.[name]) : undefined;
  const field = (name: Field, label: string, props: React.InputHTMLAttributes<HTMLInputElement>, hint?: string) => (
    <div className="field">
      <label htmlFor={`withdrawal-${name}`}>{label}</label>
      <input
        id={`withdrawal-${name}`}
        name={name}
        autoFocus={name === firstInError}
        value={values[name]}
        onChange={(e) => change(name, e.target.value)}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `withdrawal-${name}-error` : hint ? `withdrawal-${name}-hint` : undefined}
        data-testid={`withdrawal-${name}`}
        {...props}
      />
      {errors[name] ? (
        <p id={`withdrawal-${name}-error`} className="field__error" role="alert">
          {t(`withdrawal.errors.${errors[name]}`)}
        </p>
      ) : (
        hint && (
          <p id={`withdrawal-${name}-hint`} className="field__hint">
            {hint}
          </p>
        )
      )}
    </div>
  );

  return (
    <div className="page page--narrow">
      <h1>{t('withdrawal.title')}</h1>
      <p className="page__lead">{t('withdrawal.intro')}</p>
      <form className="card withdrawal-form" method="post" action={formAction} onSubmit={(event) => void submit(event)} noValidate {...loadChecksOnUse}>
        <input type="hidden" name="language" value={language} />
        {field('name', t('withdrawal.name'), { autoComplete: 'name', maxLength: WITHDRAWAL_LIMITS.name })}
        {field('reference', t('withdrawal.reference'), { maxLength: WITHDRAWAL_LIMITS.reference, autoCapitalize: 'characters' }, t('withdrawal.referenceHint'))}
        {field('email', t('withdrawal.email'), { type: 'email', autoComplete: 'email', inputMode: 'email' })}
        <p className="withdrawal-form__statement">{t('withdrawal.statement')}</p>
        {formError && (
          <p className="alert alert--error" role="alert">
            {formError}
          </p>
        )}
        <button type="submit" className="button button--primary button--large" disabled={busy} aria-busy={busy} data-testid="withdrawal-submit">
          {busy ? t('withdrawal.submitting') : t('withdrawal.submit')}
        </button>
      </form>
    </div>
  );
}
