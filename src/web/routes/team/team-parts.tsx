// What the team pages share: the team's look as rows, and field errors in the team's words.
import { DetailRows } from '../../components/details.js';
import { useI18n } from '../../i18n/i18n.js';

export interface TeamLook {
  style: string | null;
  location: string | null;
  outfit: string | null;
}

/** Style, and background and outfit where the team has them: fixed for every member. */
export function LookRows({ look, packageKey }: { look: TeamLook; packageKey?: string | null }) {
  const { t } = useI18n();
  const rows: [string, string][] = [
    ...(packageKey ? ([[t('team.look.package'), t(`catalog.packages.${packageKey}.name`)]] as [string, string][]) : []),
    ...(look.style ? ([[t('team.look.style'), t(`catalog.styles.${look.style}.name`)]] as [string, string][]) : []),
    ...(look.location ? ([[t('team.look.location'), t(`catalog.locations.${look.location}.name`)]] as [string, string][]) : []),
    ...(look.outfit ? ([[t('team.look.outfit'), t(`catalog.outfits.${look.outfit}.name`)]] as [string, string][]) : []),
  ];
  return <DetailRows rows={rows} />;
}

/** Codes the shared error catalogue has no words for (e-mail checks, the team's look), in the team's own texts. */
const OWN_ERRORS = new Set(['emailRequired', 'invalidEmail', 'locationRequired', 'outfitRequired']);

export function useTeamErrorText() {
  const { t } = useI18n();
  return (code: string, vars?: Record<string, string | number>) => {
    if (OWN_ERRORS.has(code)) return t(`team.order.errors.${code}`);
    const text = t(`errors.${code}`, vars);
    return text === `errors.${code}` ? t('errors.unknown') : text;
  };
}
