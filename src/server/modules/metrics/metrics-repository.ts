// Daily counters for page views and events (see site_metrics in the schema).
import { and, desc, gte, sql } from 'drizzle-orm';
import type { MetricEvent, MetricsSummary } from '../../../domain/metrics.js';
import { berlinDay } from '../../../domain/dates.js';
import type { Executor } from '../../db/client.js';
import { siteMetrics } from '../../db/schema.js';

export type MetricEntry = { kind: 'page_view'; name: string; detail: string } | { kind: 'event'; name: MetricEvent; detail: string };


export function createMetricsRepository(db: Executor) {
  return {
    async count(entry: MetricEntry, at: Date): Promise<void> {
      await db
        .insert(siteMetrics)
        .values({ day: berlinDay(at), kind: entry.kind, name: entry.name, detail: entry.detail, count: 1 })
        .onConflictDoUpdate({ target: [siteMetrics.day, siteMetrics.kind, siteMetrics.name, siteMetrics.detail], set: { count: sql`${siteMetrics.count} + 1` } });
    },
    /** The last `days` days including today. */
    async summary(days: number, now: Date): Promise<MetricsSummary> {
      const since = berlinDay(new Date(now.getTime() - (days - 1) * 24 * 3600 * 1000));
      const recent = gte(siteMetrics.day, since);
      const total = sql<number>`sum(${siteMetrics.count})::int`;
      const pageViews = await db
        .select({ path: siteMetrics.name, count: total })
        .from(siteMetrics)
        .where(and(recent, sql`${siteMetrics.kind} = 'page_view'`))
        .groupBy(siteMetrics.name)
        .orderBy(desc(total), siteMetrics.name);
      const pageViewsByDay = await db
        .select({ day: siteMetrics.day, count: total })
        .from(siteMetrics)
        .where(and(recent, sql`${siteMetrics.kind} = 'page_view'`))
        .groupBy(siteMetrics.day)
        .orderBy(siteMetrics.day);
      const events = await db
        .select({ name: siteMetrics.name, detail: siteMetrics.detail, count: total })
        .from(siteMetrics)
        .where(and(recent, sql`${siteMetrics.kind} = 'event'`))
        .groupBy(siteMetrics.name, siteMetrics.detail)
        .orderBy(desc(total), siteMetrics.name, siteMetrics.detail);
      return { since, pageViews, pageViewsByDay, events };
    },
  };
}
