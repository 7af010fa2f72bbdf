// The browser entry: styles at once, the app right after the first paint. The server's HTML is complete
// and readable without scripts, so the page paints without waiting for React to download; hydration then
// makes it interactive (links work as plain links until then).
import './styles/global.css';
import './styles/legal.css';

import { STATIC_PAGE_ELEMENT_ID } from './static-page-data.js';

function load() {
  // A page served without the client application (static-page-data.ts) gets its small script instead.
  if (document.getElementById(STATIC_PAGE_ELEMENT_ID)) void import('./static-page.js').then((page) => page.start());
  else void import('./client-start.js').then((app) => app.start());
}

if (document.getElementById('root')?.hasChildNodes()) {
  requestAnimationFrame(() => setTimeout(load, 0));
} else {
  load();
}
