// The inlined stylesheet's nonce attribute in the built page template: written there by the build
// (scripts/vite/inline-css.ts), replaced with each answer's CSP style nonce by the server.
export const STYLE_NONCE_PLACEHOLDER = '<!--app-style-nonce-->';
