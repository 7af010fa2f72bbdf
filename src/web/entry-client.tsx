// The browser entry, loaded by the page's inline first script (boot.ts) once the server's HTML is on screen.
// That HTML is complete and readable without scripts, so the page paints without waiting for React to
// download; hydration then makes it interactive (links work as plain links until then; a button pressed
// before is held by boot.ts and pressed again).
import './styles/global.css';
import './styles/legal.css';
// Last: the pages sent without the application leave it out (app-css.ts).
import './styles/app.css';

import { STATIC_PAGE_ELEMENT_ID } from './shell/static-page-data.js';
// Page-view counting, which the small page script and the app both use: kept in this file rather than one of
// its own, which cost every page a request and its kilobyte of headers.
import './lib/metrics.js';

function load() {
  // A page served without the client application (static-page-data.ts) gets its small script instead.
  if (document.getElementById(STATIC_PAGE_ELEMENT_ID)) void import('./shell/static-page.js').then((page) => page.start());
  // React first, then the app's modules, then the app's start, with a turn for the browser after each: three
  // shorter tasks instead of one long one.
  else {
    const turn = () => new Promise((resolve) => setTimeout(resolve, 0));
    void import('./shell/react-runtime.js')
      .then(turn)
      .then(() => import('./shell/client-start.js'))
      .then(async (app) => {
        await turn();
        await app.start();
      });
  }
}

load();
