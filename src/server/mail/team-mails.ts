// The team order's mails: the buyer's confirmation of the order and of the payment (with the join link and the
// team page), and the invitation and reminder a member receives. Texts: the "team.mail" catalogue.
import type { Language } from '../../domain/catalog.js';
import { formatMoney } from '../../domain/money.js';
import { textsIn } from '../../i18n/all-messages.js';
import { renderServiceMail, type ServiceBlock } from './service-mail.js';

export function renderTeamMail(input: {
  kind: 'ordered' | 'paid' | 'invite' | 'remind';
  language: Language;
  company: string;
  orderNumber: string;
  packageName: string;
  seats: number;
  joinUrl: string | null;
  teamUrl: string;
  siteName: string;
  /** The order's amounts, as the invoice states them (the buyer's mails only). */
  amounts: { netCents: number; vatCents: number; totalCents: number; vatRatePercent: number; reverseCharge: boolean };
}) {
  const t = textsIn(input.language, 'team.mail');
  const vars = { company: input.company, number: input.orderNumber, package: input.packageName, seats: input.seats, site: input.siteName };
  const forBuyer = input.kind === 'ordered' || input.kind === 'paid';
  const a = input.amounts;
  const amounts: ServiceBlock = {
    kind: 'rows',
    rows: [
      [t('amounts.order'), input.orderNumber],
      [t('amounts.seats', vars), formatMoney(a.netCents + a.vatCents)],
      [t('amounts.net'), formatMoney(a.netCents)],
      a.reverseCharge ? [t('amounts.reverseCharge'), formatMoney(0)] : [t('amounts.vat', { rate: a.vatRatePercent }), formatMoney(a.vatCents)],
      [input.kind === 'paid' ? t('amounts.totalPaid') : t('amounts.total'), formatMoney(a.totalCents)],
    ],
  };
  const blocks: ServiceBlock[] = [
    { kind: 'paragraph', text: t('greeting') },
    { kind: 'paragraph', text: t(`${input.kind}.intro`, vars) },
    ...(forBuyer ? [amounts] : []),
    ...(input.kind === 'paid' && input.joinUrl ? [{ kind: 'paragraph' as const, text: t('paid.share') }, { kind: 'button' as const, label: t('joinButton'), url: input.joinUrl }] : []),
    ...(!forBuyer && input.joinUrl
      ? [{ kind: 'paragraph' as const, text: t('member.steps') }, { kind: 'button' as const, label: t('joinButton'), url: input.joinUrl }, { kind: 'paragraph' as const, text: t('member.privacy', vars) }]
      : []),
    ...(forBuyer ? [{ kind: 'paragraph' as const, text: t('teamPage') }, { kind: 'button' as const, label: t('teamButton'), url: input.teamUrl }] : []),
    ...(input.kind === 'ordered' ? [{ kind: 'paragraph' as const, text: t('ordered.noWithdrawal') }] : []),
    { kind: 'paragraph', text: t('signOff', vars) },
  ];
  return renderServiceMail({ language: input.language, subject: t(`${input.kind}.subject`, vars), blocks });
}

/** A member sent their photos: what happens next, and their own link (their pictures, deleting their photos). */
export function renderMemberSubmittedMail(input: { language: Language; company: string; orderNumber: string; statusUrl: string; siteName: string }) {
  const t = textsIn(input.language, 'mail.teamMember');
  const vars = { company: input.company, number: input.orderNumber, site: input.siteName };
  return renderServiceMail({
    language: input.language,
    subject: t('subject', vars),
    blocks: [
      { kind: 'paragraph', text: t('greeting') },
      { kind: 'paragraph', text: t('intro', vars) },
      { kind: 'paragraph', text: t('next', vars) },
      { kind: 'button', label: t('button'), url: input.statusUrl },
      { kind: 'paragraph', text: t('privacy', vars) },
      { kind: 'paragraph', text: t('signOff', vars) },
    ],
  });
}
