// The router, run after React and before the app's own modules (entry-client.tsx), with a turn for the browser
// on each side: its first run was most of the app file's (a task of about 26 ms on this machine, over 100 ms
// at Lighthouse's slow phone), and in a file of its own it is a task of its own.
export { BrowserRouter } from 'react-router';
