// A team member's access to their own order in this browser session: the draft token from joining (as the
// wizard keeps its draft), what the join page showed, their gender choice, and their status link once sent.
const KEY = 'team-member';

export interface MemberAccess {
  draftToken: string;
  orderNumber: string;
  company: string;
  gender?: string;
  /** The member's own status page (path and token), from the answer to their submission. */
  statusUrl?: string;
}

function read(): Record<string, MemberAccess> {
  try {
    return JSON.parse(sessionStorage.getItem(KEY) ?? '{}') as Record<string, MemberAccess>;
  } catch {
    return {};
  }
}

export function memberAccess(orderId: string): MemberAccess | null {
  return read()[orderId] ?? null;
}

export function rememberMember(orderId: string, access: MemberAccess) {
  try {
    sessionStorage.setItem(KEY, JSON.stringify({ ...read(), [orderId]: access }));
  } catch {
    // Without storage the member joins again with the same address and gets the same draft back.
  }
}
