import { describe, expect, it } from 'vitest';
import { RoundBook, medianRound, roundsRecord, type MeasuredRound } from './rounds.js';

const measured = (round: number, qps: number): MeasuredRound => ({
  round,
  figures: { requests: qps * 4, qps, avgLatencyMs: 1000 / qps, p50LatencyMs: 0.1, p99LatencyMs: 0.2 * round, p999LatencyMs: 1, errors: 0, tool: 'basalt-bench 0.1.0' },
  report: { 'ALL STATS': { Totals: { 'Ops/sec': qps } } },
  startedAt: new Date(Date.UTC(2026, 10, 27, 1, round)),
  finishedAt: new Date(Date.UTC(2026, 10, 27, 1, round, 4)),
});

describe('rounds', () => {
  it('gives a scenario its median round once its last round is in, per scenario and server', () => {
    const book = new RoundBook();
    expect(book.add('1/basalt', measured(1, 36_000), 3)).toBeUndefined();
    expect(book.add('1/redis', measured(1, 34_000), 3)).toBeUndefined();
    expect(book.add('1/basalt', measured(2, 52_000), 3)).toBeUndefined();
    const done = book.add('1/basalt', measured(3, 50_000), 3)!;
    // The median run whole: its ops/s and its own latencies and count, not a mix of rounds.
    expect(done.median).toMatchObject({ round: 3, figures: { qps: 50_000, requests: 200_000, p99LatencyMs: 0.6000000000000001 } });
    expect(done.all.map((r) => r.round)).toEqual([1, 2, 3]);
    expect(roundsRecord(done).map((r) => [r.round, r.median, r['Ops/sec']])).toEqual([
      [1, false, 36_000],
      [2, false, 52_000],
      [3, true, 50_000],
    ]);
    // One round: stored at once.
    expect(book.add('2/basalt', measured(1, 10), 1)).toMatchObject({ median: { round: 1 } });
  });

  it('takes the lower middle of an even count', () => {
    expect(medianRound([measured(1, 4), measured(2, 1), measured(3, 3), measured(4, 2)]).figures.qps).toBe(2);
  });
});
