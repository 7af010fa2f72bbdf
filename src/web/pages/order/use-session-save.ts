// What a form keeps for this browser session (the wizard's selections, the team order's fields), written again
// on every change once it was read back after hydration.
import { useEffect } from 'react';

/** Writes `value` under `key` while `ready` (before then, writing would replace what is kept with the initial value). */
export function useSessionSave(key: string, value: unknown, ready: boolean) {
  useEffect(() => {
    if (!ready) return;
    try {
      sessionStorage.setItem(key, JSON.stringify(value));
    } catch {
      // storage full or disabled: nothing is kept, and the form works on (each caller says why that is fine)
    }
  }, [key, value, ready]);
}
