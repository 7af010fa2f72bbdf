// The order's own facts in the detail page: who ordered what (with its status control), the prices, the dates.
import type { ReactNode } from 'react';
import { formatMoney } from '../../../domain/money.js';
import type { AdminOrder, AdminOrderDetail } from '../../../domain/staff-api.js';
import { Badge } from './admin-ui.js';
import {
  displayOrderNumber,
  extraName,
  formatDateTime,
  genderLabel,
  languageLabel,
  locationName,
  outfitName,
  packageName,
  paymentStatusLabel,
  paymentStatusTone,
  styleName,
} from './admin-format.js';
import { StatusControl } from './status-control.js';

function Row({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="summary__row admin-row" data-testid={testId}>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

export function OrderCard({ detail, onChange }: { detail: AdminOrderDetail; onChange: (detail: AdminOrderDetail) => void }) {
  const { order } = detail;
  return (
    <section className="card admin-card" aria-labelledby="order-card-title">
      <h2 id="order-card-title">Bestellung</h2>
      <dl className="summary__details">
        <Row label="Bestellnummer">
          <span className="admin-mono" title={order.id}>
            {displayOrderNumber(order)}
          </span>
        </Row>
        {order.firstName && <Row label="Vorname">{order.firstName}</Row>}
        {order.lastName && <Row label="Nachname">{order.lastName}</Row>}
        {order.billingName && <Row label="Rechnung an">{order.billingName}</Row>}
        {order.billingAddress && (
          <Row label="Rechnungsadresse">
            <span className="admin-lines">{order.billingAddress}</span>
          </Row>
        )}
        <Row label="E-Mail">{order.email ? <a href={`mailto:${order.email}`}>{order.email}</a> : '–'}</Row>
        {order.phone && (
          <Row label="Telefon">
            <a href={`tel:${order.phone}`}>{order.phone}</a>
          </Row>
        )}
        <Row label="Status">
          <StatusControl detail={detail} onChange={onChange} />
        </Row>
        <Row label="Bestelldatum">
          <time dateTime={order.orderedAt ?? order.createdAt}>{formatDateTime(order.orderedAt ?? order.createdAt)}</time>
        </Row>
        {detail.team?.kind !== 'team' && <Row label="Geschlecht">{genderLabel(order.gender)}</Row>}
        {order.styleBase && <Row label="Basis-Stil">{styleName(order.styleBase)}</Row>}
        <Row label="Paket">{packageName(order.package)}</Row>
        {order.refineOutfit && <Row label="Outfit-Stil">{outfitName(order.refineOutfit)}</Row>}
        {order.refineLocation && <Row label="Hintergrund">{locationName(order.refineLocation)}</Row>}
        <Row label="Zusätzliche Features" testId="order-extras">
          {order.extras.length ? order.extras.map(extraName).join(', ') : 'Keine zusätzlichen Features'}
        </Row>
        <Row label="Zahlung">
          <Badge tone={paymentStatusTone(order.paymentStatus)}>{paymentStatusLabel(order.paymentStatus)}</Badge>
        </Row>
        <Row label="Betrag">{order.totalCents === null ? '–' : formatMoney(order.totalCents)}</Row>
        {order.language && <Row label="Sprache">{languageLabel(order.language)}</Row>}
      </dl>
    </section>
  );
}

export function PricesCard({ order }: { order: AdminOrder }) {
  const money = (cents: number | null) => (cents === null ? '–' : formatMoney(cents));
  return (
    <section className="card admin-card" aria-labelledby="prices-title">
      <h2 id="prices-title">Preise</h2>
      <dl className="summary__details">
        {order.packageListCents !== null && order.packageListCents !== order.packageCents && <Row label="Paket (Listenpreis)">{money(order.packageListCents)}</Row>}
        {!!order.discountCents && <Row label="Rabatt">− {money(order.discountCents)}</Row>}
        <Row label="Paket">{money(order.packageCents)}</Row>
        <Row label="Extras">{money(order.extrasCents)}</Row>
        <Row label="Netto">{money(order.netCents)}</Row>
        <Row label="MwSt.">{money(order.vatCents)}</Row>
        <Row label="Gesamt">
          <strong>{money(order.totalCents)}</strong>
        </Row>
      </dl>
    </section>
  );
}

export function DatesCard({ order, business }: { order: AdminOrder; business: boolean }) {
  const rows: [string, string | null][] = [
    ['Angelegt', order.createdAt],
    ['Bestellt', order.orderedAt],
    ['Bezahlt', order.paidAt],
    ['Abgeschlossen', order.completedAt],
    ['Fotos gelöscht', order.photosDeletedAt],
  ];
  return (
    <section className="card admin-card" aria-labelledby="dates-title">
      <h2 id="dates-title">Zeitpunkte</h2>
      <dl className="summary__details">
        {rows
          .filter(([, value]) => value)
          .map(([label, value]) => (
            <Row key={label} label={label}>
              <time dateTime={value ?? undefined}>{formatDateTime(value)}</time>
            </Row>
          ))}
        <Row label="Widerrufsverzicht">
          {business ? 'Entfällt (Unternehmer, kein Widerrufsrecht)' : order.waiverAcceptedAt ? `${formatDateTime(order.waiverAcceptedAt)}${order.waiverTextVersion ? ` (Text ${order.waiverTextVersion})` : ''}` : 'Nicht erteilt'}
        </Row>
      </dl>
    </section>
  );
}
