// Every figure a benchmark prints is also written to the run's report (BENCH_REPORT, one JSON line each), so
// `npm run bench` can end with one table: figure, target, met or not. A target is a comparison the figure is
// held to ("<= 1000 ms", "< 1.5 s", ">= 99", "0", "100"); one in other words ("30 an hour") is shown, not judged.
import { appendFileSync } from 'node:fs';

const UNIT_FACTORS = { ms: 1, s: 1000, KB: 1, MB: 1 };

/** 'met', 'not met', or null where the target is no comparison of the figure's own unit. */
export function verdict(value, unit, target) {
  if (typeof value !== 'number' || !target) return null;
  const match = /^\s*(<=|>=|<|>|=)?\s*(-?\d+(?:\.\d+)?)\s*([A-Za-z%/]*)\s*$/.exec(target);
  if (!match) return null;
  const [, op = '=', number, targetUnit] = match;
  let limit = Number(number);
  if (targetUnit && targetUnit !== unit) {
    // The same quantity in another unit (s against ms): compare in the figure's unit.
    if (!(targetUnit in UNIT_FACTORS) || !(unit in UNIT_FACTORS) || (targetUnit === 'KB') !== (unit === 'KB') || (targetUnit === 'MB') !== (unit === 'MB')) return null;
    limit = (limit * UNIT_FACTORS[targetUnit]) / UNIT_FACTORS[unit];
  }
  const ok = op === '<=' ? value <= limit : op === '>=' ? value >= limit : op === '<' ? value < limit : op === '>' ? value > limit : value === limit;
  return ok ? 'met' : 'not met';
}

export function record(name, value, unit, target) {
  const file = process.env.BENCH_REPORT;
  if (!file) return;
  appendFileSync(file, `${JSON.stringify({ bench: process.env.BENCH_NAME ?? '', name: name.trim(), value, unit, target: target ?? '', verdict: verdict(value, unit, target) })}\n`);
}

/** Smaller sizes and one run each (BENCH_SMOKE=1, `npm run bench -- --smoke`): proves every benchmark still runs to its end. */
export const SMOKE = process.env.BENCH_SMOKE === '1';
