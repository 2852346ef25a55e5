// RDB uploads (issue 44): the body streamed, counted and hashed, sealed frame by frame with a
// key of the upload's own onto this host's disk (never whole in memory), then stored at
//   imports/<project>/<upload>.rdb
// with its key sealed by the master key in rdb_imports. A create with
// restore_from.rdb_import_id has the worker check and read it into the new instance.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Injectable } from '@nestjs/common';
import { encryptSecret, RdbFilesRepository } from '@basalt/db';
import { sealStream } from '@basalt/db/sealed-stream';
import { ApiConfig } from '../config.js';
import { PayloadTooLarge, UnsupportedMediaType } from '../common/errors.js';
import type { AuthContext } from '../common/request-context.js';
import { ProjectAccess } from '../projects/project-access.service.js';
import { type RdbImportDto, type RdbImportLimitsDto, toRdbImportDto } from './rdb-file.dto.js';
import { RdbStore } from './rdb-store.js';

/** How long an upload can be created from. */
const RDB_IMPORT_TTL_MS = 24 * 3_600_000;
const MEDIA_TYPE = 'application/octet-stream';

export interface RdbUpload {
  body: Readable;
  contentType: string | undefined;
  contentLength: string | undefined;
  /** Ends the connection after the reply: a refused body is not read on to its end. */
  closeAfterReply: () => void;
}

@Injectable()
export class RdbImportService {
  constructor(
    private readonly config: ApiConfig,
    private readonly access: ProjectAccess,
    private readonly files: RdbFilesRepository,
    private readonly store: RdbStore,
  ) {}

  /** What an upload may be, for the console to say before it sends a byte. */
  async limits(auth: AuthContext, projectId: string): Promise<RdbImportLimitsDto> {
    await this.access.require(auth, projectId);
    // No store, no uploads: the console then offers none.
    this.store.require();
    return { max_bytes: this.config.rdbImportMaxBytes, expires_after_seconds: RDB_IMPORT_TTL_MS / 1000 };
  }

  async upload(auth: AuthContext, projectId: string, upload: RdbUpload): Promise<RdbImportDto> {
    await this.access.require(auth, projectId, 'member');
    const store = this.store.require();
    if (upload.contentType?.split(';')[0]?.trim().toLowerCase() !== MEDIA_TYPE) {
      throw new UnsupportedMediaType(`Send the RDB file itself as the body, with Content-Type: ${MEDIA_TYPE}`);
    }
    const max = this.config.rdbImportMaxBytes;
    const tooLarge = () => new PayloadTooLarge(`An RDB upload may be at most ${max} bytes (BASALT_RDB_IMPORT_MAX_BYTES)`);
    if (upload.contentLength !== undefined && Number(upload.contentLength) > max) {
      upload.closeAfterReply();
      throw tooLarge();
    }

    const id = randomUUID();
    const objectKey = `imports/${projectId}/${id}.rdb`;
    const key = randomBytes(32);
    const hash = createHash('sha256');
    let received = 0;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        received += chunk.length;
        if (received > max) return done(tooLarge());
        hash.update(chunk);
        done(null, chunk);
      },
    });
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'basalt-rdb-upload-'));
    try {
      const sealed = path.join(dir, 'sealed');
      // Piped, not part of the pipeline: a refused body stops being read, but the request (and
      // its socket, which the reply and the audit log still need) is not destroyed.
      upload.body.pipe(counted);
      upload.body.once('error', (error) => counted.destroy(error));
      try {
        await pipeline(counted, sealStream(key, objectKey), fs.createWriteStream(sealed, { mode: 0o600 }));
      } catch (error) {
        upload.body.unpipe(counted);
        upload.body.pause();
        upload.closeAfterReply();
        throw error;
      }
      await store.put(objectKey, { path: sealed });
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
    const now = new Date();
    const row = await this.files.insertImport({
      id,
      projectId,
      objectKey,
      dataKeyEncrypted: encryptSecret(this.config.masterKey, key.toString('base64')),
      sizeBytes: received,
      sha256: hash.digest('hex'),
      createdBy: auth.user.id,
      createdAt: now,
      expiresAt: new Date(now.getTime() + RDB_IMPORT_TTL_MS),
    });
    return toRdbImportDto(row);
  }
}
