// A scenario measured in rounds (memtier-standard, encryption-overhead: the suite's list once
// per round, so a slow stretch of the shared host falls in one round of a scenario, not in all
// of them): the rounds
// of each scenario and server gathered until the last, then the one its row is made of, the
// median round by ops/s. Its figures stay one run's own (ops/s, latencies and request count of
// the same run), never a mix; every round's JSON is kept beside it.
import type { ScenarioFigures } from './scenario-figures.js';

export interface MeasuredRound {
  round: number;
  figures: ScenarioFigures;
  /** basalt-bench's JSON of the run, with what the job recorded beside it. */
  report: Record<string, unknown>;
  startedAt: Date;
  finishedAt: Date;
}

export interface RoundsDone {
  median: MeasuredRound;
  all: MeasuredRound[];
}

/** Where a scenario's run stands: its round, its rounds, the suite's rounds, and the book. */
export interface RoundOf {
  round: number;
  of: number;
  suiteRounds: number;
  book: RoundBook;
}

/** The median of an odd count; of an even count, the lower of the two middle runs (the cautious figure). */
export function medianRound(all: MeasuredRound[]): MeasuredRound {
  const sorted = [...all].sort((a, b) => a.figures.qps - b.figures.qps);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

export class RoundBook {
  private readonly rounds = new Map<string, MeasuredRound[]>();

  /** Adds a round of `key` (scenario and server); once `of` are in, returns them with their median. */
  add(key: string, measured: MeasuredRound, of: number): RoundsDone | undefined {
    const all = [...(this.rounds.get(key) ?? []), measured];
    this.rounds.set(key, all);
    if (all.length < of) return undefined;
    this.rounds.delete(key);
    return { median: medianRound(all), all };
  }
}

/** What a row of several rounds stores beside the median round's JSON: each round's figure and JSON. */
export function roundsRecord(done: RoundsDone): Record<string, unknown>[] {
  return done.all.map((r) => ({
    round: r.round,
    median: r === done.median,
    'Ops/sec': r.figures.qps,
    requests: r.figures.requests,
    started_at: r.startedAt.toISOString(),
    finished_at: r.finishedAt.toISOString(),
    report: r.report,
  }));
}
