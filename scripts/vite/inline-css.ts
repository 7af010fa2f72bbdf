// Puts the stylesheet into the page itself instead of linking it: a linked stylesheet blocks the first paint
// for one more round trip (about 150 ms on Lighthouse's mobile network), and ours is small (about 10 KB
// compressed). The CSP allows no inline style without the answer's nonce, so the tag carries a placeholder
// the server fills in per answer (src/server/modules/web/routes.ts). The file stays in the build too (the
// service worker's shell lists it; styles of chunks loaded later still come as files).
import type { Plugin } from 'vite';
import { STYLE_NONCE_PLACEHOLDER } from '../../src/web/shell/style-nonce.js';

export function inlineCss(): Plugin {
  return {
    name: 'shop-inline-css',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        return html.replace(/<link rel="stylesheet"[^>]*? href="\/([^"]+\.css)"[^>]*>/g, (tag, fileName: string) => {
          const asset = context.bundle?.[fileName];
          if (!asset || asset.type !== 'asset') throw new Error(`inline-css: ${fileName} is not in the bundle`);
          const css = typeof asset.source === 'string' ? asset.source : Buffer.from(asset.source).toString('utf8');
          return `<style nonce="${STYLE_NONCE_PLACEHOLDER}">${css.replace(/<\/style/gi, '<\\/style')}</style>`;
        });
      },
    },
  };
}
