// The customer mails' layout: a mail is a list of blocks (mail-blocks.ts) shown by these React components,
// rendered to static HTML on the server. Tables and inline styles, because that is what mail clients
// (Outlook, Gmail, Apple Mail) display reliably; React escapes every text and attribute.
import { Fragment, type CSSProperties, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { safeHref, type Block, type MailLayout } from './mail-blocks.js';

const FONT: CSSProperties = { fontFamily: 'Arial,Helvetica,sans-serif' };
const TEXT: CSSProperties = { ...FONT, fontSize: '15px', lineHeight: 1.5, color: '#1f2937' };
const SMALL: CSSProperties = { ...FONT, fontSize: '12px', lineHeight: 1.5, color: '#6b7280' };
const LINK: CSSProperties = { color: '#1d4ed8', textDecoration: 'underline', wordBreak: 'break-all' };

/** Multi-line values (addresses, consent texts) keep their lines. */
export function Lines({ text }: { text: string }) {
  const lines = text.split(/\r?\n/);
  return lines.map((line, i) => (
    <Fragment key={i}>
      {i > 0 && <br />}
      {line}
    </Fragment>
  ));
}

/** Only web and mail links become clickable; anything else is shown as text. */
function Link({ url, label = url }: { url: string; label?: string }) {
  const href = safeHref(url);
  return href === null ? (
    <>{label}</>
  ) : (
    <a href={href} style={LINK}>
      {label}
    </a>
  );
}

function Table({ style, width, children }: { style: CSSProperties; width?: string; children: ReactNode }) {
  return (
    <table role="presentation" width={width} cellPadding={0} cellSpacing={0} border={0} style={style}>
      <tbody>{children}</tbody>
    </table>
  );
}

function Rows({ block }: { block: Extract<Block, { kind: 'rows' }> }) {
  return (
    <Table width="100%" style={{ borderCollapse: 'collapse', margin: '0 0 16px' }}>
      {block.rows.map(({ label, value, strong }, i) => {
        const cell: CSSProperties = { padding: '7px 0', borderBottom: '1px solid #e5e7eb', verticalAlign: 'top', ...TEXT, ...(strong ? { fontWeight: 'bold' } : {}) };
        return (
          <tr key={i}>
            <td style={{ ...cell, paddingRight: '12px', ...(block.amounts ? {} : { width: '40%' }) }}>{label}</td>
            <td style={{ ...cell, ...(block.amounts ? { textAlign: 'right', whiteSpace: 'nowrap' } : { textAlign: 'left' }) }}>
              <Lines text={value} />
            </td>
          </tr>
        );
      })}
    </Table>
  );
}

function Button({ block }: { block: Extract<Block, { kind: 'button' }> }) {
  const href = safeHref(block.url);
  if (href === null) {
    return (
      <p style={{ margin: '0 0 12px', ...TEXT }}>
        {block.label}: {block.url}
      </p>
    );
  }
  return (
    <>
      <Table style={{ margin: '8px 0 12px' }}>
        <tr>
          <td style={{ borderRadius: '6px', background: '#1d4ed8' }}>
            <a
              href={href}
              style={{ display: 'inline-block', padding: '12px 22px', ...FONT, fontSize: '15px', fontWeight: 'bold', color: '#ffffff', textDecoration: 'none', borderRadius: '6px' }}
            >
              {block.label}
            </a>
          </td>
        </tr>
      </Table>
      <p style={{ margin: '0 0 12px', ...FONT, fontSize: '13px', lineHeight: 1.5, color: '#6b7280' }}>
        {block.fallback}
        <br />
        <Link url={block.url} />
      </p>
    </>
  );
}

export function MailBlock({ block }: { block: Block }) {
  switch (block.kind) {
    case 'heading':
      return <h2 style={{ margin: '28px 0 10px', ...FONT, fontSize: '18px', lineHeight: 1.3, color: '#111827' }}>{block.text}</h2>;
    case 'subheading':
      return <p style={{ margin: '16px 0 4px', ...TEXT, fontWeight: 'bold' }}>{block.text}</p>;
    case 'paragraph':
      return (
        <p style={{ margin: '0 0 12px', ...TEXT }}>
          <Lines text={block.text} />
        </p>
      );
    case 'rows':
      return <Rows block={block} />;
    case 'list': {
      const Tag = block.ordered ? 'ol' : 'ul';
      return (
        <Tag style={{ margin: '0 0 12px', paddingLeft: '22px', ...TEXT }}>
          {block.items.map((item, i) => (
            <li key={i} style={{ margin: '0 0 6px' }}>
              {item}
            </li>
          ))}
        </Tag>
      );
    }
    case 'quote':
      return (
        <Table width="100%" style={{ margin: '0 0 16px' }}>
          <tr>
            <td style={{ borderLeft: '4px solid #1d4ed8', background: '#f3f4f6', padding: '12px 16px', ...TEXT, fontStyle: 'italic' }}>
              <Lines text={block.text} />
            </td>
          </tr>
        </Table>
      );
    case 'button':
      return <Button block={block} />;
    case 'link':
      return (
        <p style={{ margin: '0 0 12px', ...TEXT }}>
          {block.label}
          <br />
          <Link url={block.url} />
        </p>
      );
  }
}

export function MailDocument({ layout }: { layout: MailLayout }) {
  const { footer } = layout;
  return (
    <html lang={layout.language}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light" />
        <title>{layout.subject}</title>
      </head>
      <body style={{ margin: 0, padding: 0, background: '#f3f4f6' }}>
        <div style={{ display: 'none', maxHeight: 0, overflow: 'hidden', opacity: 0 }}>{layout.preheader}</div>
        <Table width="100%" style={{ background: '#f3f4f6' }}>
          <tr>
            <td align="center" style={{ padding: '24px 12px' }}>
              <Table width="100%" style={{ maxWidth: '600px', background: '#ffffff', borderRadius: '8px' }}>
                <tr>
                  <td style={{ padding: '20px 28px', borderBottom: '1px solid #e5e7eb', ...FONT, fontSize: '20px', fontWeight: 'bold', color: '#111827' }}>{layout.siteName}</td>
                </tr>
                <tr>
                  <td style={{ padding: '24px 28px' }}>
                    {layout.blocks.map((block, i) => (
                      <MailBlock key={i} block={block} />
                    ))}
                  </td>
                </tr>
                <tr>
                  <td style={{ padding: '20px 28px', borderTop: '1px solid #e5e7eb', background: '#f9fafb', borderRadius: '0 0 8px 8px' }}>
                    {footer.lines.map((line, i) => (
                      <p key={i} style={{ margin: '0 0 6px', ...SMALL }}>
                        <Lines text={line} />
                      </p>
                    ))}
                    {footer.mailto && (
                      <p style={{ margin: '0 0 6px', ...SMALL }}>
                        {footer.mailto.label} <Link url={`mailto:${footer.mailto.address}`} label={footer.mailto.address} />
                      </p>
                    )}
                    <p style={{ margin: '8px 0 0', ...SMALL }}>
                      {footer.links.map((link, i) => (
                        <Fragment key={i}>
                          {i > 0 && ' · '}
                          <Link url={link.url} label={link.label} />
                        </Fragment>
                      ))}
                    </p>
                  </td>
                </tr>
              </Table>
            </td>
          </tr>
        </Table>
      </body>
    </html>
  );
}

/** A complete HTML mail document. */
export function renderMailHtml(element: ReactNode): string {
  return `<!DOCTYPE html>\n${renderToStaticMarkup(element)}\n`;
}
