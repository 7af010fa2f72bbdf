import { PACKAGE_KEYS, type PackageKey } from './catalog.js';

/** A configured promotion on package prices (docs/rules.md §1). */
export interface Campaign {
  id: string;
  percent: number;
  packages: readonly PackageKey[];
  startsAt: Date;
  endsAt: Date;
}

export function isCampaignActive(campaign: Campaign | null, now: Date): campaign is Campaign {
  if (!campaign || campaign.percent <= 0) return false;
  const t = now.getTime();
  return t >= campaign.startsAt.getTime() && t < campaign.endsAt.getTime();
}

export function campaignPercentFor(campaign: Campaign | null, pkg: PackageKey, now: Date): number {
  if (!isCampaignActive(campaign, now)) return 0;
  return campaign.packages.includes(pkg) ? campaign.percent : 0;
}

export function validateCampaign(campaign: Campaign): string[] {
  const problems: string[] = [];
  if (!Number.isInteger(campaign.percent) || campaign.percent < 0 || campaign.percent > 90) {
    problems.push('percent must be a whole number from 0 to 90');
  }
  for (const pkg of campaign.packages) {
    if (!(PACKAGE_KEYS as readonly string[]).includes(pkg)) problems.push(`unknown package "${pkg}"`);
  }
  if (Number.isNaN(campaign.startsAt.getTime())) problems.push('start is not a valid date');
  if (Number.isNaN(campaign.endsAt.getTime())) problems.push('end is not a valid date');
  if (campaign.endsAt.getTime() <= campaign.startsAt.getTime()) problems.push('end must be after start');
  return problems;
}
