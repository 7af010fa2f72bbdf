// The operator's details in the legal texts: every fact comes from the site configuration and is shown only
// when it is set.
import { Fragment } from 'react';
import type { SiteInfo } from '../../../domain/site.js';
import { useAppData } from '../../app-data.js';
import { useI18n } from '../../lib/i18n.js';

export function Mail({ address }: { address: string }) {
  return <a href={`mailto:${address}`}>{address}</a>;
}

export function Phone({ number }: { number: string }) {
  return <a href={`tel:${number.replace(/[^+\d]/g, '')}`}>{number}</a>;
}

/** The one-line configured address, one part per line ("Musterstraße 1, 10115 Berlin, Deutschland"). */
export function AddressLines({ address }: { address: string }) {
  return (
    <>
      {address.split(/,\s*/).map((line, index) => (
        <Fragment key={index}>
          <br />
          {line}
        </Fragment>
      ))}
    </>
  );
}

/** Name, address and (optionally) e-mail and phone of the operator. */
export function Operator(props: { email?: string; phone?: boolean }) {
  const { t } = useI18n();
  const { site } = useAppData();
  return (
    <address className="legal__address">
      <strong>{site.legalName}</strong>
      {site.address && <AddressLines address={site.address} />}
      {props.email && (
        <>
          <br />
          {t('legal.common.email')} <Mail address={props.email} />
        </>
      )}
      {props.phone && site.phone && (
        <>
          <br />
          {t('legal.common.phone')} <Phone number={site.phone} />
        </>
      )}
    </address>
  );
}

/** Name, address and e-mail as one line of text, for the withdrawal notice and form. */
export function operatorLine(site: SiteInfo): string {
  return [site.legalName, site.address, site.supportEmail].filter(Boolean).join(', ');
}
