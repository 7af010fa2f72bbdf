// React Router's build names its components for React's developer tools (`Form.displayName = "Form"`) and
// makes Link, NavLink and Form with `React.forwardRef(...)` calls the bundler cannot know to be free of
// effects. Together they keep each of those components, and what it needs, in the bundle even where nothing
// uses it: Form with its submission helpers reached every React page. In the browser bundle the assignments
// go and the calls are marked pure, so what the app does not use is left out. Nothing reads the names but
// the developer tools.
import type { Plugin } from 'vite';

const ROUTER_FILE = /[\\/]node_modules[\\/]react-router[\\/]dist[\\/].*\.mjs$/;
const DISPLAY_NAME = /^[A-Za-z_$][\w$]*\.displayName = "[^"\n]*";$/gm;
const FORWARD_REF = /^(var [A-Za-z_$][\w$]* = )(React\d*\.forwardRef\()/gm;

export function routerWithoutDisplayNames(): Plugin {
  return {
    name: 'shop-router-without-display-names',
    apply: 'build',
    transform: {
      filter: { id: ROUTER_FILE },
      handler(code) {
        // Blanked to spaces of the same length, so the lines keep their positions for the source map (the
        // pure marks move the rest of three lines).
        const result = code.replace(DISPLAY_NAME, (statement) => ' '.repeat(statement.length)).replace(FORWARD_REF, '$1/* @__PURE__ */ $2');
        return result === code ? null : { code: result, map: null };
      },
    },
  };
}
