import { useState, type ReactNode } from 'react';
import { CONTACT_LIMITS, cutText } from '../../../domain/validation-rules.js';
import type { ContactForm } from '../../../domain/validation.js';
import { useAppData } from '../../app-data.js';
import { useFormSend } from '../../components/use-form-send.js';
import { api } from '../../lib/api.js';
import { checkForm, loadChecksOnUse } from '../../lib/form-checks.js';
import { useI18n } from '../../lib/i18n.js';

type Field = 'name' | 'email' | 'message';
const EMPTY = { name: '', email: '', message: '' };

export function ContactPage() {
  const { t, language } = useI18n();
  const { site } = useAppData();
  const [values, setValues] = useState(EMPTY);
  const [sent, setSent] = useState(false);
  const { errors, setErrors, formError, busy, clearError, submit } = useFormSend<Field, ContactForm>({
    check: () => checkForm((schemas) => schemas.contactFormSchema, values),
    send: async (data) => {
      await api('/api/contact', { method: 'POST', body: { ...data, language } });
      setSent(true);
    },
    errorKeys: { failed: 'contact.errors.submitError', rateLimited: 'contact.errors.rateLimited' },
    shownErrors: (found) => ({ name: found.name, email: found.email, message: found.message }),
  });

  const change = (field: Field, value: string) => {
    // Spec: input is cut at 2000 characters; an error clears when its field is edited.
    setValues((v) => ({ ...v, [field]: cutText(value, CONTACT_LIMITS.inputMax) }));
    clearError(field);
  };

  const field = (name: Field, label: string, input: ReactNode) => (
    <div className="field">
      <label htmlFor={`contact-${name}`}>{label}</label>
      {input}
      {errors[name] && (
        <p id={`contact-${name}-error`} className="field__error" role="alert">
          {t(`contact.errors.${errors[name]}`)}
        </p>
      )}
    </div>
  );
  const described = (name: Field) => (errors[name] ? { 'aria-invalid': true as const, 'aria-describedby': `contact-${name}-error` } : {});

  return (
    <div className="page">
      <h1>{t('contact.title')}</h1>
      <p className="page__lead">{t('contact.lead')}</p>
      <div className="card-grid contact">
        <section className="card" aria-labelledby="contact-details">
          <h2 id="contact-details">{t('contact.details')}</h2>
          <dl className="contact__list">
            <dt>{t('contact.support')}</dt>
            <dd>
              <a href={`mailto:${site.supportEmail}`}>{site.supportEmail}</a>
            </dd>
            <dt>{t('contact.privacy')}</dt>
            <dd>
              <a href={`mailto:${site.privacyEmail}`}>{site.privacyEmail}</a>
            </dd>
            {site.phone && (
              <>
                <dt>{t('contact.phone')}</dt>
                <dd>
                  <a href={`tel:${site.phone.replace(/[^+\d]/g, '')}`}>{site.phone}</a>
                </dd>
              </>
            )}
            {site.address && (
              <>
                <dt>{t('contact.address')}</dt>
                <dd>
                  {site.legalName}, {site.address}
                </dd>
              </>
            )}
            <dt>{t('contact.hours')}</dt>
            <dd>
              {t('common.footer.hoursWeekdays')}
              <br />
              {t('common.footer.hoursSaturday')}
              <br />
              {t('common.footer.hoursSunday')}
            </dd>
          </dl>
        </section>
        <section className="card" aria-labelledby="contact-form-title">
          {sent ? (
            <div role="status" data-testid="contact-success">
              <h2 id="contact-form-title">{t('contact.form.successTitle')}</h2>
              <p>{t('contact.form.successText')}</p>
              <button
                type="button"
                className="button button--secondary"
                onClick={() => {
                  setValues(EMPTY);
                  setErrors({});
                  setSent(false);
                }}
              >
                {t('contact.form.newMessage')}
              </button>
            </div>
          ) : (
            <form onSubmit={submit} noValidate {...loadChecksOnUse}>
              <h2 id="contact-form-title">{t('contact.form.title')}</h2>
              {field('name', t('contact.form.name'), <input id="contact-name" autoComplete="name" value={values.name} onChange={(e) => change('name', e.target.value)} data-testid="contact-name" {...described('name')} />)}
              {field(
                'email',
                t('contact.form.email'),
                <input id="contact-email" type="email" autoComplete="email" value={values.email} onChange={(e) => change('email', e.target.value)} data-testid="contact-email" {...described('email')} />,
              )}
              {field(
                'message',
                t('contact.form.message'),
                <>
                  <textarea id="contact-message" rows={6} value={values.message} onChange={(e) => change('message', e.target.value)} data-testid="contact-message" aria-describedby="contact-message-hint" {...described('message')} />
                  <p id="contact-message-hint" className="field__hint">
                    {t('contact.form.messageHint')} ({values.message.length}/{CONTACT_LIMITS.messageMax})
                  </p>
                </>,
              )}
              {formError && (
                <p className="alert alert--error" role="alert">
                  {formError}
                </p>
              )}
              <button type="submit" className="button button--primary" disabled={busy} data-testid="contact-submit">
                {busy ? t('contact.form.sending') : t('contact.form.submit')}
              </button>
            </form>
          )}
        </section>
      </div>
    </div>
  );
}
