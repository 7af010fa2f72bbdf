// A form's checks in the browser load when the visitor turns to the form (its first focus or press), not with
// the page: the schema library is about a fifth of a page's JavaScript and nothing on the first screen needs it.
// The send handler awaits them, so a form sent at once still gets the same checks. The server checks every
// request with the same schemas whatever the browser did.
type FormSchemas = typeof import('./form-schemas.js');

let loading: Promise<FormSchemas> | null = null;

/** The schemas, loaded once; a load that failed (offline, a new version replaced the files) is tried again. */
export function loadFormChecks(): Promise<FormSchemas> {
  loading ??= import('./form-schemas.js').catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

function warm() {
  loadFormChecks().catch(() => {
    // Tried again when the form is sent, which then says what went wrong.
  });
}

/** Spread on a form: focusing a field or pressing a button in it starts loading its checks. */
export const loadChecksOnUse = { onFocus: warm, onPointerDown: warm } as const;
