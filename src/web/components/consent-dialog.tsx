// The consent banner and settings (consent.tsx decides when they show), in a file of their own: most shops
// configure no service that needs consent, and their visitors never load this.
import { useEffect, useId, useRef, useState } from 'react';
import type { ConsentServices } from '../../domain/site.js';
import { useI18n } from '../lib/i18n.js';
import type { ConsentChoice, ConsentKind as Kind } from './consent-choice.js';
import { PageLink } from './page-link.js';

export function ConsentDialog(props: {
  kinds: Kind[];
  services: ConsentServices;
  current: ConsentChoice | null;
  settings: boolean;
  onSettings: () => void;
  onDecide: (choice: ConsentChoice) => void;
  onClose: (() => void) | null;
}) {
  const { t } = useI18n();
  const titleId = useId();
  const [draft, setDraft] = useState<ConsentChoice>(props.current ?? { analytics: false, chat: false });
  const dialogRef = useRef<HTMLDivElement>(null);
  const all = (value: boolean): ConsentChoice => ({ analytics: value && props.kinds.includes('analytics'), chat: value && props.kinds.includes('chat') });
  const names = props.kinds.map((kind) => t(`common.consent.${kind}`, { name: props.services[kind]!.name })).join(', ');
  const { onClose } = props;

  useEffect(() => {
    // The settings were asked for: they take the focus. The first-visit banner does not interrupt reading.
    if (props.settings) dialogRef.current?.focus();
  }, [props.settings]);

  useEffect(() => {
    if (!onClose) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);

  return (
    <div ref={dialogRef} className="cookie-consent" role="dialog" aria-modal="false" aria-labelledby={titleId} tabIndex={-1} data-testid="consent">
      <div className="cookie-consent__inner">
        <h2 id={titleId} className="cookie-consent__title">
          {props.settings ? t('common.consent.settingsTitle') : t('common.consent.title')}
        </h2>
        <p className="cookie-consent__text">{t('common.consent.text', { services: names })}</p>
        {props.settings && (
          <fieldset className="cookie-consent__options">
            <legend className="visually-hidden">{t('common.consent.settingsTitle')}</legend>
            {props.kinds.map((kind) => (
              <label key={kind} className="cookie-consent__option">
                <input
                  type="checkbox"
                  checked={draft[kind]}
                  onChange={(event) => setDraft((d) => ({ ...d, [kind]: event.target.checked }))}
                  data-testid={`consent-${kind}`}
                />
                <span>
                  <strong>{t(`common.consent.${kind}`, { name: props.services[kind]!.name })}</strong>
                  <span className="cookie-consent__hint">{t(`common.consent.${kind}Text`)}</span>
                </span>
              </label>
            ))}
          </fieldset>
        )}
        <p className="cookie-consent__links">
          <PageLink to="datenschutz">{t('common.consent.privacyLink')}</PageLink>
        </p>
        <div className="cookie-consent__actions">
          <button type="button" className="button button--consent" onClick={() => props.onDecide(all(false))} data-testid="consent-reject">
            {t('common.consent.rejectAll')}
          </button>
          {props.settings ? (
            <button type="button" className="button button--consent" onClick={() => props.onDecide(draft)} data-testid="consent-save">
              {t('common.consent.save')}
            </button>
          ) : (
            <button type="button" className="button button--consent" onClick={props.onSettings} data-testid="consent-settings">
              {t('common.consent.settings')}
            </button>
          )}
          <button type="button" className="button button--consent" onClick={() => props.onDecide(all(true))} data-testid="consent-accept">
            {t('common.consent.acceptAll')}
          </button>
        </div>
        {props.onClose && (
          <button type="button" className="cookie-consent__close" aria-label={t('common.consent.close')} onClick={props.onClose}>
            <span aria-hidden="true">×</span>
          </button>
        )}
      </div>
    </div>
  );
}
