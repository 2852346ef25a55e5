// What a restore puts into a new instance (issue 44): the segments of the source's base, and
// for a point in time those its archive stored after it on the same timeline, each read from
// the bucket, checked (the store's SHA-256, then every piece opened with the source's data
// key at its own segment and offset) and written as the engine's own log files, with the
// one-shot `recovery.target` that makes the engine replay up to the point and cut its log
// there. Anything missing, damaged or not opening fails the restore naming the object: an
// empty instance never passes for a restored one.
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { gapAt, gapRefusal, windowCovers, type ArchivedSegmentRow, type BackupRow, type RestoreSource } from '@basalt/db';
import type { JobContext } from '../context.js';
import { StepError } from '../errors.js';
import type { ObjectStore } from './object-store.js';
import { openSegmentObject, partPrefix, partRange } from './archive-objects.js';
import { dataKey } from './data-key.js';
import { open as openSealed } from './sealed-object.js';
import { parseManifest, type BaseManifest } from './manifest.js';

const STEP = 'restore_data';

export interface RestorePlan {
  sourceInstanceId: string;
  backup: BackupRow;
  manifest: BaseManifest;
  /** Segments to write, in order, with the bytes of each that must be there. */
  segments: { id: number; bytes: number }[];
  /** What recovery.target says: the base's end, or the point in time. */
  target: { lsn: number } | { timeMs: number };
}

async function readAll(store: ObjectStore, key: string): Promise<Buffer> {
  const { body } = await store.get(key);
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The base, segments and target a restore from `source` needs; throws naming what is missing. */
export async function planRestore(ctx: JobContext, store: ObjectStore, source: Exclude<RestoreSource, { rdb_import_id: string }>): Promise<RestorePlan> {
  const backups = ctx.repo.backups();
  let backup: BackupRow | undefined;
  let pointMs: number | undefined;
  if ('backup_id' in source) {
    backup = await backups.getForJob(source.backup_id);
    if (!backup || backup.status !== 'succeeded') throw new StepError(STEP, `backup ${source.backup_id} is not a succeeded backup`);
  } else {
    pointMs = source.point_in_time_ms;
    [backup] = await backups.basesBefore(source.source_instance_id, new Date(pointMs));
    if (!backup) throw new StepError(STEP, `instance ${source.source_instance_id} has no backup from before ${new Date(pointMs).toISOString()}`);
  }
  const archive = await backups.getArchive(backup.instanceId);
  if (!archive || !backup.manifestKey) throw new StepError(STEP, `backup ${backup.id} has no manifest or its instance no data key`);
  const key = dataKey(ctx, archive);
  let manifest: BaseManifest;
  try {
    const plain = openSealed(key, backup.manifestKey, await readAll(store, backup.manifestKey));
    manifest = parseManifest(plain.toString('utf8'), { backupId: backup.id, instanceId: backup.instanceId });
  } catch (error) {
    throw new StepError(STEP, `backup ${backup.id}: ${(error as Error).message}`);
  }
  const segments = manifest.segments.map((s) => ({ id: s.id, bytes: s.bytes }));
  if (pointMs === undefined) return { sourceInstanceId: backup.instanceId, backup, manifest, segments, target: { lsn: manifest.end_lsn } };

  // The archive after the base, up to the first segment that starts after the point.
  const last = Math.max(...segments.map((s) => s.id));
  const archived = (await backups.segmentsOf(backup.instanceId, manifest.timeline)).filter((row) => row.segment > last);
  let next = last + 1;
  for (const row of archived) {
    if (row.segment !== next) break;
    segments.push({ id: row.segment, bytes: 0 });
    next++;
    if (row.firstTime && row.firstTime.getTime() > pointMs) break;
  }
  // The active segment's tail pieces, if the archive has them and the point may lie there.
  if (segments[segments.length - 1]!.id === next - 1 && (await hasPieces(store, backup.instanceId, manifest.timeline, next))) segments.push({ id: next, bytes: 0 });
  // The shared window rule (the API checked it too when the create was asked; retention or a
  // failover may have moved it since): a point past the archive, or in the gap a failover left
  // between one timeline's end and the next one's first base, is refused rather than stopped short.
  const window = await backups.restoreWindow(backup.instanceId);
  const at = new Date(pointMs);
  const gap = gapAt(window, at);
  if (gap) throw new StepError(STEP, `${backup.instanceId}: ${gapRefusal(gap, at)}`);
  if (!windowCovers(window, at)) {
    throw new StepError(STEP, `the archive of ${backup.instanceId} reaches ${window.latest?.toISOString() ?? 'nothing'}, before ${at.toISOString()}`);
  }
  return { sourceInstanceId: backup.instanceId, backup, manifest, segments, target: { timeMs: pointMs } };
}

async function hasPieces(store: ObjectStore, instanceId: string, timeline: number, segment: number): Promise<boolean> {
  for await (const _piece of store.list(partPrefix(instanceId, timeline, segment))) return true;
  return false;
}

/** The plaintext of one segment: its whole object if stored, else its tail pieces from 0. */
async function segmentBytes(store: ObjectStore, stored: Map<number, ArchivedSegmentRow>, key: Buffer, plan: RestorePlan, id: number): Promise<Buffer> {
  const timeline = plan.manifest.timeline;
  const whole = stored.get(id);
  if (whole) {
    const object = await readAll(store, whole.objectKey);
    if (createHash('sha256').update(object).digest('hex') !== whole.sha256) throw new StepError(STEP, `${whole.objectKey}: its bytes do not have the SHA-256 recorded when it was stored`);
    return openSegmentObject(key, whole.objectKey, id, 0, object);
  }
  const pieces: { key: string; from: number; to: number }[] = [];
  for await (const piece of store.list(partPrefix(plan.sourceInstanceId, timeline, id))) pieces.push({ key: piece.key, ...partRange(piece.key) });
  pieces.sort((a, b) => a.from - b.from);
  const out: Buffer[] = [];
  let at = 0;
  for (const piece of pieces) {
    if (piece.from !== at) throw new StepError(STEP, `segment ${id} of ${plan.sourceInstanceId}: bytes ${at}..${piece.from} are in no stored piece`);
    const plain = openSegmentObject(key, piece.key, id, piece.from, await readAll(store, piece.key));
    if (plain.length !== piece.to - piece.from) throw new StepError(STEP, `${piece.key}: holds ${plain.length} bytes, its name says ${piece.to - piece.from}`);
    out.push(plain);
    at = piece.to;
  }
  return Buffer.concat(out);
}

/** Writes the plan's segments and recovery.target into `dir` (made empty first). */
export async function fetchRestore(ctx: JobContext, store: ObjectStore, plan: RestorePlan, dir: string): Promise<{ bytes: number }> {
  const backups = ctx.repo.backups();
  const archive = await backups.getArchive(plan.sourceInstanceId);
  const key = dataKey(ctx, archive!);
  const stored = new Map((await backups.segmentsOf(plan.sourceInstanceId, plan.manifest.timeline)).map((row) => [row.segment, row]));
  await fs.rm(dir, { recursive: true, force: true });
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  let bytes = 0;
  for (const segment of plan.segments) {
    let plain: Buffer;
    try {
      plain = await segmentBytes(store, stored, key, plan, segment.id);
    } catch (error) {
      throw error instanceof StepError ? error : new StepError(STEP, (error as Error).message);
    }
    if (plain.length < segment.bytes) throw new StepError(STEP, `segment ${segment.id} of ${plan.sourceInstanceId}: ${plain.length} of the base's ${segment.bytes} bytes are stored`);
    await fs.writeFile(path.join(dir, `wal-${String(segment.id).padStart(10, '0')}.log`), plain, { mode: 0o600 });
    bytes += plain.length;
  }
  const target = 'lsn' in plan.target ? `lsn=${plan.target.lsn}` : `time-ms=${plan.target.timeMs}`;
  await fs.writeFile(path.join(dir, 'recovery.target'), `# restore of ${plan.backup.id}\n${target}\n`, { mode: 0o600 });
  return { bytes };
}
