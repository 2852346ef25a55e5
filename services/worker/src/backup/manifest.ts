// A base backup's manifest: the segments that, replayed in order, rebuild the instance's data
// at its end (the engine's BACKUP BASE), stored sealed beside the segments (sealed-object.ts).
// Read back only through `parseManifest`, which refuses anything but this shape.

export interface ManifestSegment {
  id: number;
  /** Bytes of it the base needs: all of a sealed one, the durable prefix of the active one. */
  bytes: number;
  sealed: boolean;
  first_lsn: number;
  last_lsn: number;
  first_time_ms: number;
  last_time_ms: number;
}

export interface BaseManifest {
  format: 1;
  backup_id: string;
  instance_id: string;
  timeline: number;
  end_lsn: number;
  end_time_ms: number;
  segments: ManifestSegment[];
}

const whole = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

export function parseManifest(text: string, expect: { backupId: string; instanceId: string }): BaseManifest {
  const fail = (why: string): never => {
    throw new Error(`the manifest of backup ${expect.backupId} ${why}`);
  };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return fail('is not JSON');
  }
  const m = value as Partial<BaseManifest>;
  if (m.format !== 1) fail(`has format ${String(m.format)}, not 1`);
  if (m.backup_id !== expect.backupId || m.instance_id !== expect.instanceId) fail('names another backup or instance');
  if (!whole(m.timeline) || !whole(m.end_lsn) || !whole(m.end_time_ms) || !Array.isArray(m.segments)) fail('lacks its timeline, end or segments');
  for (const s of m.segments!) {
    if (![s.id, s.bytes, s.first_lsn, s.last_lsn, s.first_time_ms, s.last_time_ms].every(whole) || typeof s.sealed !== 'boolean') fail('lists a malformed segment');
  }
  return m as BaseManifest;
}
