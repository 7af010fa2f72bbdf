// React and its DOM renderer, run before the app's own modules (entry-client.tsx), with a turn for the browser in
// between: their first run is the largest part of starting the app, and run together the two were one task of
// about 100 ms on Lighthouse's slow phone, blocking taps for half of it (TBT).
export { hydrateRoot } from 'react-dom/client';
export { startTransition } from 'react';
