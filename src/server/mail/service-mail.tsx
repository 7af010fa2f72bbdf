// Short service mails (status link, refund, withdrawal receipt, staff notes): paragraphs, a table of facts and a
// button, as HTML (React, rendered on the server) and plain text. Texts come translated from the caller.
import { Fragment } from 'react';
import { oneLineSubject } from './mail-blocks.js';
import { Lines, renderMailHtml } from './mail-document.js';

export type ServiceBlock = { kind: 'paragraph'; text: string } | { kind: 'rows'; rows: [string, string][] } | { kind: 'button'; label: string; url: string };

function ServiceMailDocument({ language, blocks }: { language: string; blocks: ServiceBlock[] }) {
  return (
    <html lang={language}>
      <body style={{ margin: 0, padding: '24px', fontFamily: 'Arial,Helvetica,sans-serif', fontSize: '15px', lineHeight: 1.5, color: '#0f172a' }}>
        {blocks.map((block, i) => (
          <Fragment key={i}>
            {block.kind === 'paragraph' && (
              <p style={{ margin: '0 0 14px' }}>
                <Lines text={block.text} />
              </p>
            )}
            {block.kind === 'rows' && (
              <table style={{ borderCollapse: 'collapse', margin: '0 0 14px' }}>
                <tbody>
                  {block.rows.map(([label, value], j) => (
                    <tr key={j}>
                      <td style={{ padding: '2px 12px 2px 0', color: '#475569' }}>{label}</td>
                      <td style={{ padding: '2px 0' }}>
                        <Lines text={value} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            {block.kind === 'button' && (
              <p style={{ margin: '0 0 14px' }}>
                <a
                  href={block.url}
                  style={{ display: 'inline-block', padding: '10px 18px', borderRadius: '8px', background: '#1d4ed8', color: '#ffffff', textDecoration: 'none', fontWeight: 600 }}
                >
                  {block.label}
                </a>
              </p>
            )}
          </Fragment>
        ))}
      </body>
    </html>
  );
}

export function renderServiceMail(input: { language: string; subject: string; blocks: ServiceBlock[] }): { subject: string; html: string; text: string } {
  const text = input.blocks
    .map((block) => (block.kind === 'paragraph' ? block.text : block.kind === 'rows' ? block.rows.map(([label, value]) => `${label}: ${value}`).join('\n') : `${block.label}: ${block.url}`))
    .join('\n\n');
  return {
    subject: oneLineSubject(input.subject),
    html: renderMailHtml(<ServiceMailDocument language={input.language} blocks={input.blocks} />),
    text: `${text}\n`,
  };
}
