import { Injectable } from '@nestjs/common';
import { type OperationEventRow, OperationsRepository, type OperationRow } from '@basalt/db';
import { Observable } from 'rxjs';
import { decodeCursor, encodeCursor, isCursorTimestamp } from '../common/cursor.js';
import { NotFound } from '../common/errors.js';
import type { AuthContext } from '../common/request-context.js';
import { ProjectAccess } from '../projects/project-access.service.js';
import { InstanceService } from '../instances/instance.service.js';
import { EventStreamSlots } from './event-stream-slots.js';
import { type OperationDto, type OperationListDto, toOperationDto } from './operation.dto.js';

const POLL_MS = 500;
const MAX_STREAM_MS = 30 * 60_000;
const EVENTS_PER_READ = 500;

export interface OperationStreamEvent {
  id: string;
  type: string;
  data: unknown;
}

interface OperationCursor {
  t: string;
  id: string;
}
const isOperationCursor = (v: unknown): v is OperationCursor =>
  typeof v === 'object' && v !== null && typeof (v as OperationCursor).t === 'string' && isCursorTimestamp((v as OperationCursor).t) &&
  typeof (v as OperationCursor).id === 'string' && /^[0-9a-f-]{36}$/i.test((v as OperationCursor).id);

function eventDto(event: OperationEventRow) {
  return { id: event.id, kind: event.kind, step: event.step, message: event.message, data: event.data ?? null, created_at: event.createdAt.toISOString() };
}

@Injectable()
export class OperationService {
  constructor(
    private readonly operations: OperationsRepository,
    private readonly access: ProjectAccess,
    private readonly instances: InstanceService,
    private readonly slots: EventStreamSlots,
  ) {}

  async get(auth: AuthContext, id: string): Promise<OperationDto> {
    return toOperationDto(await this.visible(auth, id));
  }

  async listForInstance(auth: AuthContext, projectId: string, instanceId: string, limit = 50, cursor?: string): Promise<OperationListDto> {
    const instance = await this.instances.load(auth, projectId, instanceId);
    const before = cursor ? decodeCursor(cursor, isOperationCursor) : undefined;
    const rows = await this.operations.listForInstance(projectId, instance.id, limit + 1, before && { createdAt: before.t, id: before.id });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return { items: page.map(toOperationDto), next_cursor: rows.length > limit && last ? encodeCursor({ t: last.cursorAt, id: last.id }) : null };
  }

  /**
   * Server-Sent Events: every stored event of the operation after `lastEventId` (the browser's
   * Last-Event-ID on reconnect), then live ones, then a final `operation` event when it finishes.
   * Each live stream holds one of the user's slots (429 when they are all taken) until it ends
   * or its subscriber leaves.
   */
  async stream(auth: AuthContext, id: string, lastEventId: number): Promise<Observable<OperationStreamEvent>> {
    await this.visible(auth, id);
    const release = await this.slots.take(auth.user.id);
    return new Observable<OperationStreamEvent>((subscriber) => {
      let closed = false;
      let after = lastEventId;
      const started = Date.now();
      const loop = async () => {
        while (!closed) {
          // The status before the events: the worker stores a finished status in the same
          // transaction as the operation's last event, so once the status read here is
          // finished the events read next are all of them (read the other way round, the
          // events written between the two reads were never sent).
          const operation = (await this.operations.getById(id)) as OperationRow | undefined;
          const events = await this.operations.eventsAfter(id, after, EVENTS_PER_READ);
          for (const event of events) {
            after = event.id;
            subscriber.next({ id: String(event.id), type: 'progress', data: eventDto(event) });
          }
          const more = events.length === EVENTS_PER_READ;
          const finished = !operation || operation.status === 'succeeded' || operation.status === 'failed';
          if ((finished && !more) || Date.now() - started > MAX_STREAM_MS) {
            if (operation) subscriber.next({ id: String(after), type: 'operation', data: toOperationDto(operation) });
            subscriber.complete();
            return;
          }
          if (!more) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        }
      };
      loop().catch((error) => subscriber.error(error));
      return () => {
        closed = true;
        release();
      };
    });
  }

  /**
   * The caller's projects' operations, and a per-type report's (benchmark_report): reports are
   * platform-wide, read by every signed-in caller, and so is the progress of making one.
   */
  private async visible(auth: AuthContext, id: string): Promise<OperationRow> {
    const operation = await this.operations.getById(id);
    if (!operation) throw new NotFound('Operation');
    if (operation.type !== 'benchmark_report' && !(await this.access.isMember(auth, operation.projectId))) throw new NotFound('Operation');
    return operation;
  }
}
