// Team orders (issue 17): the buyer's checkout (seats of one package, one look, the company's billing data and
// VAT ID), the join link with its seats counted on the server, invitations and reminders, the buyer's team view
// (progress per member, never their photos), the member's submission (no payment) and the team ZIP.
// A member's order is an ordinary order row that names its team order: uploads, the photo gate, production,
// staff review, results and the 30-day deletion work for it as for any customer.
// Each group of operations has its own file (team-checkout.ts, team-payment-hooks.ts, team-page.ts, team-join.ts,
// member-submission.ts, team-zip.ts), put together here into the one service the routes, the composition root and
// the order lifecycle use. What the parts share is in team-context.ts.
import { createMemberSubmission } from './member-submission.js';
import { createTeamCheckout } from './team-checkout.js';
import { createTeamContext, type TeamDeps } from './team-context.js';
import { createTeamJoin } from './team-join.js';
import { createTeamPage } from './team-page.js';
import { createTeamPaymentHooks } from './team-payment-hooks.js';
import { createTeamZip } from './team-zip.js';

export type { TeamDeps } from './team-context.js';
export type { TeamJoinInfo } from './team-join.js';
export { PROFILE_PICTURE_PX, TEAM_ZIP_KINDS, type TeamZipKind } from './team-zip.js';

export function createTeamService(deps: TeamDeps) {
  const context = createTeamContext(deps);
  const { checkout, pay } = createTeamCheckout(context);
  const hooks = createTeamPaymentHooks(context);
  const page = createTeamPage(context);
  const joining = createTeamJoin(context);
  const { submitMember } = createMemberSubmission(context);
  const { teamZip } = createTeamZip(context);

  return {
    checkout,
    pay,
    onPaid: hooks.onPaid,
    sendPaidMail: hooks.sendPaidMail,
    isTeamOrder: hooks.isTeamOrder,
    view: page.view,
    // These answer with this.view(...): called as this object's methods, as before the split.
    invite: page.invite,
    remind: page.remind,
    renewLink: page.renewLink,
    removeMember: page.removeMember,
    joinInfo: joining.joinInfo,
    join: joining.join,
    submitMember,
    teamZip,
  };
}

export type TeamService = ReturnType<typeof createTeamService>;
