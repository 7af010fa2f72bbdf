// The legal pages (docs/rules.md §4): Impressum, Datenschutzerklärung, AGB with Widerrufsbelehrung
// and Muster-Widerrufsformular, and the Erklärung zur Barrierefreiheit. Every fact about the operator comes
// from the site configuration and is shown only when it is set; every price, count and period comes from
// the catalogue, so the texts cannot drift from what the software sells and enforces.
import type { ReactNode } from 'react';
import { formatDate } from '../../../domain/dates.js';
import { useI18n } from '../../lib/i18n.js';

/** The version of the legal texts ("Stand"); change it whenever a text changes in substance. */
export const LEGAL_VERSION_DATE = '2026-11-25';

/** The frame of one legal page: its title, the note that the German text binds, the text, and its version. */
export function LegalDocument(props: { id: string; titleKey: string; dated: boolean; binding?: boolean; children: ReactNode }) {
  const { t, language } = useI18n();
  return (
    <div className="page page--narrow legal" data-testid={`legal-${props.id}`}>
      <article aria-labelledby={`${props.id}-title`}>
        <h1 id={`${props.id}-title`}>{t(props.titleKey)}</h1>
        {language !== 'de' && props.binding !== false && (
          <p className="alert alert--info" lang={language}>
            {t('legal.common.bindingNotice')}
          </p>
        )}
        {props.children}
        {props.dated && (
          <p className="legal__version">
            {t('legal.common.version', { date: formatDate(LEGAL_VERSION_DATE, language) })}
          </p>
        )}
      </article>
    </div>
  );
}
