// The object store backups (and RDB exports and imports) go to, through the AWS SDK's S3 client: the platform's embedded store
// (scripts/lib/objectstore.mjs) or any S3-compatible one the settings name (the worker's and the API's config.ts). Every
// object is written with its SHA-256, which the store checks before it keeps the object and
// which every read is checked against as it streams; a read that does not match fails at its
// end, naming the key, so no caller takes a damaged object for a backup.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { Readable, Transform } from 'node:stream';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';

/** Where the store is and the files that hold its credentials (BASALT_BACKUP_S3_*). */
export interface ObjectStoreConfig {
  /** none: AWS S3 in `region`. */
  endpoint?: string;
  bucket: string;
  region: string;
  /** `endpoint/bucket/key` rather than `bucket.endpoint/key`: what most self-hosted stores serve. */
  forcePathStyle: boolean;
  accessKeyFile: string;
  secretKeyFile: string;
}

export interface StoredObject {
  key: string;
  size: number;
  /** Hex; from head and put (a listing does not carry it). */
  sha256?: string;
  lastModified?: Date;
}

export class ObjectStoreError extends Error {
  constructor(
    readonly key: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ObjectStoreError';
  }
}

/** DeleteObjects takes at most this many keys a request. */
const DELETE_BATCH = 1000;
/** The user metadata that repeats the SHA-256, for stores that keep no S3 checksum. */
const SHA256_META = 'sha256';

const hexToBase64 = (hex: string) => Buffer.from(hex, 'hex').toString('base64');
const base64ToHex = (b64: string) => Buffer.from(b64, 'base64').toString('hex');

function readCredential(file: string): string {
  const text = fs.readFileSync(file, 'utf8').replace(/\r?\n$/, '');
  if (!text) throw new Error(`${file} is empty`);
  return text;
}

/** What the store said, after what was being done and to which key. */
function failure(key: string, doing: string, error: unknown): ObjectStoreError {
  if (error instanceof ObjectStoreError) return error;
  const detail = error instanceof S3ServiceException ? `${error.name} (HTTP ${error.$metadata.httpStatusCode ?? '?'}): ${error.message}` : String((error as Error)?.message ?? error);
  return new ObjectStoreError(key, `${doing} ${key}: ${detail}`, { cause: error });
}

async function fileSha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export class ObjectStore {
  readonly bucket: string;
  private readonly client: S3Client;

  constructor(config: ObjectStoreConfig) {
    this.bucket = config.bucket;
    this.client = new S3Client({
      endpoint: config.endpoint,
      region: config.region,
      forcePathStyle: config.forcePathStyle,
      // Read from the files at each refresh, so a rotated key is taken without a restart; the
      // SDK asks again once the expiration is near.
      credentials: async () => ({
        accessKeyId: readCredential(config.accessKeyFile),
        secretAccessKey: readCredential(config.secretKeyFile),
        expiration: new Date(Date.now() + 15 * 60_000),
      }),
    });
  }

  /**
   * Stores `body` (bytes, or a file read twice: once to hash, once to send) at `key`. With
   * `sha256` (hex, e.g. from the backup's manifest) that is the checksum sent; the store refuses
   * the object when the bytes it received do not have it.
   */
  async put(key: string, body: Uint8Array | { path: string }, options: { sha256?: string } = {}): Promise<StoredObject> {
    try {
      const fromFile = !(body instanceof Uint8Array);
      const size = fromFile ? (await fs.promises.stat(body.path)).size : body.byteLength;
      const sha256 = options.sha256 ?? (fromFile ? await fileSha256(body.path) : createHash('sha256').update(body).digest('hex'));
      if (!/^[0-9a-f]{64}$/.test(sha256)) throw new ObjectStoreError(key, `put ${key}: sha256 must be 64 hex digits, not ${sha256}`);
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Body: fromFile ? fs.createReadStream(body.path) : body,
          ContentLength: size,
          ChecksumSHA256: hexToBase64(sha256),
          Metadata: { [SHA256_META]: sha256 },
        }),
      );
      return { key, size, sha256 };
    } catch (error) {
      throw failure(key, 'put', error);
    }
  }

  /**
   * The object at `key` as a stream. The stream fails (an ObjectStoreError naming the key) when
   * its bytes do not have the SHA-256 the object was stored with, or are not its length.
   */
  async get(key: string): Promise<{ body: Readable; size: number; sha256: string }> {
    let source: Readable;
    let size: number;
    let expected: string;
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key, ChecksumMode: 'ENABLED' }));
      const stored = res.ChecksumSHA256 && !res.ChecksumSHA256.includes('-') ? base64ToHex(res.ChecksumSHA256) : res.Metadata?.[SHA256_META];
      if (!stored) {
        (res.Body as Readable | undefined)?.destroy();
        throw new ObjectStoreError(key, `get ${key}: the store keeps no SHA-256 for it, so it cannot be verified`);
      }
      source = res.Body as Readable;
      size = res.ContentLength ?? -1;
      expected = stored;
    } catch (error) {
      throw failure(key, 'get', error);
    }
    const hash = createHash('sha256');
    let read = 0;
    const verified = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        read += chunk.length;
        done(null, chunk);
      },
      flush(done) {
        const got = hash.digest('hex');
        if (size >= 0 && read !== size) done(new ObjectStoreError(key, `get ${key}: read ${read} bytes, the object has ${size}`));
        else if (got !== expected) done(new ObjectStoreError(key, `get ${key}: the bytes read have SHA-256 ${got}, the object was stored with ${expected}`));
        else done();
      },
    });
    source.once('error', (error) => verified.destroy(failure(key, 'get', error)));
    verified.once('close', () => source.destroy());
    source.pipe(verified);
    return { body: verified, size, sha256: expected };
  }

  /** The object at `key`, or undefined when there is none. */
  async head(key: string): Promise<StoredObject | undefined> {
    try {
      const res = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key, ChecksumMode: 'ENABLED' }));
      const sha256 = res.ChecksumSHA256 && !res.ChecksumSHA256.includes('-') ? base64ToHex(res.ChecksumSHA256) : res.Metadata?.[SHA256_META];
      return { key, size: res.ContentLength ?? 0, sha256, lastModified: res.LastModified };
    } catch (error) {
      if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404) return undefined;
      throw failure(key, 'head', error);
    }
  }

  /** Every object whose key starts with `prefix`, in key order, a page (`pageSize` keys) at a time. */
  async *list(prefix: string, options: { pageSize?: number } = {}): AsyncGenerator<StoredObject> {
    let token: string | undefined;
    do {
      let page;
      try {
        page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token, MaxKeys: options.pageSize }));
      } catch (error) {
        throw failure(prefix, 'list', error);
      }
      for (const item of page.Contents ?? []) {
        if (item.Key !== undefined) yield { key: item.Key, size: item.Size ?? 0, lastModified: item.LastModified };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /** Deletes `keys` (a missing one is no error), a thousand a request; fails naming each it could not. */
  async deleteMany(keys: readonly string[]): Promise<void> {
    for (let start = 0; start < keys.length; start += DELETE_BATCH) {
      const batch = keys.slice(start, start + DELETE_BATCH);
      let errors;
      try {
        const res = await this.client.send(
          new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }),
        );
        errors = res.Errors ?? [];
      } catch (error) {
        throw failure(batch[0], `delete (${batch.length} keys, the first)`, error);
      }
      if (errors.length > 0) {
        const named = errors.map((e) => `${e.Key}: ${e.Code} ${e.Message ?? ''}`.trim()).join('; ');
        throw new ObjectStoreError(errors[0].Key ?? batch[0], `delete: ${errors.length} of ${batch.length} keys were not deleted: ${named}`);
      }
    }
  }

  /** Closes the client's connections. */
  close(): void {
    this.client.destroy();
  }
}
