// A form's checks in the browser load when the visitor turns to the form (its first focus or press), not with
// the page: the schema library is about a fifth of a page's JavaScript and nothing on the first screen needs it.
// The send handler awaits them, so a form sent at once still gets the same checks. The server checks every
// request with the same schemas whatever the browser did.
// Only types come from zod here: the library itself loads with './form-schemas.js', through import() below.
import type { z } from 'zod';

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

/**
 * The first error code of each field, keyed by the field's name (the first step of the path); an issue
 * of the value as a whole (a schema of one value, an unknown key) stands under `_form`.
 */
export type FieldErrors = Partial<Record<string, string>>;

/** What a form's check says: the parsed values, the fields in error, or that the checks could not load. */
export type FormCheck<T> = { status: 'valid'; data: T } | { status: 'invalid'; fields: FieldErrors } | { status: 'unavailable' };

/**
 * Checks a form's values with the schema `pick` chooses from the lazily loaded schemas. `unavailable` when the
 * schemas could not load (the page then says so in its own words); a schema that throws is a fault, not that.
 */
export async function checkForm<S extends z.ZodType>(pick: (schemas: FormSchemas) => S, values: unknown): Promise<FormCheck<z.output<S>>> {
  const checks = await loadFormChecks().catch(() => null);
  if (!checks) return { status: 'unavailable' };
  const parsed = pick(checks).safeParse(values);
  return parsed.success ? { status: 'valid', data: parsed.data } : { status: 'invalid', fields: checks.fieldErrors(parsed.error) };
}
