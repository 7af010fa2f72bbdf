// Short service mails (refund, withdrawal receipt): paragraphs, a table of facts and a button, as HTML and
// plain text. Every text comes translated from the caller; this only lays it out safely.
import { escapeHtml } from './outbox-routes.js';

export type SimpleBlock = { kind: 'paragraph'; text: string } | { kind: 'rows'; rows: [string, string][] } | { kind: 'button'; label: string; url: string };

export function renderSimpleMail(input: { language: string; subject: string; blocks: SimpleBlock[] }): { subject: string; html: string; text: string } {
  const html = input.blocks
    .map((block) => {
      if (block.kind === 'paragraph') return `<p style="margin:0 0 14px">${escapeHtml(block.text).replace(/\n/g, '<br>')}</p>`;
      if (block.kind === 'rows') {
        return `<table style="border-collapse:collapse;margin:0 0 14px">${block.rows
          .map(([label, value]) => `<tr><td style="padding:2px 12px 2px 0;color:#475569">${escapeHtml(label)}</td><td style="padding:2px 0">${escapeHtml(value).replace(/\n/g, '<br>')}</td></tr>`)
          .join('')}</table>`;
      }
      return `<p style="margin:0 0 14px"><a href="${escapeHtml(block.url)}" style="display:inline-block;padding:10px 18px;border-radius:8px;background:#1d4ed8;color:#ffffff;text-decoration:none;font-weight:600">${escapeHtml(block.label)}</a></p>`;
    })
    .join('\n');
  const text = input.blocks
    .map((block) => (block.kind === 'paragraph' ? block.text : block.kind === 'rows' ? block.rows.map(([label, value]) => `${label}: ${value}`).join('\n') : `${block.label}: ${block.url}`))
    .join('\n\n');
  return {
    subject: input.subject.replace(/[\r\n]+/g, ' '),
    html: `<!doctype html><html lang="${escapeHtml(input.language)}"><body style="margin:0;padding:24px;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#0f172a">${html}</body></html>`,
    text: `${text}\n`,
  };
}
