// A customer mail is a list of blocks: shown once as HTML (mail-document.tsx) and once as plain text (here),
// so both versions always say the same thing. Texts come translated from the caller (src/i18n, namespace "mail").
import type { Language } from '../../domain/catalog.js';

export type Block =
  | { kind: 'heading'; text: string }
  | { kind: 'subheading'; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'rows'; rows: { label: string; value: string; strong?: boolean }[]; amounts?: boolean }
  | { kind: 'list'; items: string[]; ordered?: boolean }
  | { kind: 'quote'; text: string }
  | { kind: 'button'; label: string; url: string; fallback: string }
  | { kind: 'link'; label: string; url: string };

export interface MailLayout {
  language: Language;
  subject: string;
  preheader: string;
  siteName: string;
  blocks: Block[];
  footer: { lines: string[]; links: { label: string; url: string }[]; mailto: { label: string; address: string } | null };
}

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
  template: string;
}

/** Only web and mail links become clickable; anything else is shown as text. */
export function safeHref(url: string): string | null {
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:' || protocol === 'mailto:' ? url : null;
  } catch {
    return null;
  }
}

/** The mailer refuses subjects with line breaks; configuration must not be able to cause that. */
export function oneLineSubject(subject: string): string {
  return subject.replace(/[\r\n]+/g, ' ');
}

function textBlock(block: Block): string {
  switch (block.kind) {
    case 'heading':
      return `${block.text}\n${'='.repeat(block.text.length)}`;
    case 'subheading':
      return `${block.text}\n${'-'.repeat(block.text.length)}`;
    case 'paragraph':
      return block.text;
    case 'rows':
      return block.rows.map(({ label, value }) => `${label}: ${value.replace(/\r?\n/g, ', ')}`).join('\n');
    case 'list':
      return block.items.map((item, i) => `${block.ordered ? `${i + 1}.` : '-'} ${item}`).join('\n');
    case 'quote':
      return block.text
        .split(/\r?\n/)
        .map((line) => `> ${line}`)
        .join('\n');
    case 'button':
      return `${block.label}:\n${block.url}`;
    case 'link':
      return `${block.label}\n${block.url}`;
  }
}

/** The plain-text version of a mail. */
export function renderMailText(layout: MailLayout): string {
  const { mailto } = layout.footer;
  const footer = [...layout.footer.lines, ...(mailto ? [`${mailto.label} ${mailto.address}`] : [])];
  const links = layout.footer.links.map((link) => `${link.label}: ${link.url}`);
  // "-- " with its space is the signature delimiter mail clients recognise.
  return `${[...layout.blocks.map(textBlock), ['-- ', ...footer, ...links].join('\n')].join('\n\n')}\n`;
}
