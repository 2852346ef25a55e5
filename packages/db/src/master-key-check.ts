// Instance-user passwords are useless under a different master key, so the first start stores a
// value encrypted with it and every later start (API or worker) proves it still has the same key.
import { eq } from 'drizzle-orm';
import type { Db } from './client.js';
import { controlPlaneSettings } from './schema.js';
import { decryptSecret, encryptSecret, MasterKeyError } from './secrets.js';

const CHECK_KEY = 'master_key_check';
const CHECK_PLAINTEXT = 'basalt-master-key-check';

export async function verifyMasterKey(db: Db, masterKey: Buffer): Promise<void> {
  await db
    .insert(controlPlaneSettings)
    .values({ key: CHECK_KEY, value: encryptSecret(masterKey, CHECK_PLAINTEXT) })
    .onConflictDoNothing();
  const [row] = await db.select().from(controlPlaneSettings).where(eq(controlPlaneSettings.key, CHECK_KEY));
  let plaintext: string | undefined;
  try {
    plaintext = decryptSecret(masterKey, row!.value);
  } catch {
    plaintext = undefined;
  }
  if (plaintext !== CHECK_PLAINTEXT) {
    throw new MasterKeyError('BASALT_MASTER_KEY is not the key this database was set up with; stored passwords could not be decrypted');
  }
}
