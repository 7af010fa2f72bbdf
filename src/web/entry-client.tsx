// The browser entry: styles at once, the app right after the first paint. The server's HTML is complete
// and readable without scripts, so the page paints without waiting for React to download; hydration then
// makes it interactive (links work as plain links until then).
import './styles/global.css';
import './styles/admin.css';
import './styles/legal.css';

function load() {
  void import('./client-start.js').then((app) => app.start());
}

if (document.getElementById('root')?.hasChildNodes()) {
  requestAnimationFrame(() => setTimeout(load, 0));
} else {
  load();
}
