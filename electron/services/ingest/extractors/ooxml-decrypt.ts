// Password-protected Office files (DOCX, PPTX, XLSX): an OLE container holding the encrypted package
// (MS-OFFCRYPTO). With the password given at ingest (as for PDFs) the package is decrypted in memory
// and then read like any other, through the same ZIP pre-scan; the stored file stays the encrypted one.
import { AppError } from '../../../../shared/contract/errors.ts';
import { encryptedOfficeError, invalidPackage, isEncryptedOfficeFile, type PackageKind } from './ooxml-zip.ts';

/** MS-OFFCRYPTO caps the password hash's spin count at 10,000,000; a larger one only burns CPU. */
const MAX_SPIN_COUNT = 10_000_000;

/** The spinCount attributes of the agile EncryptionInfo XML, which sits unencrypted in the container. */
function spinCounts(bytes: Uint8Array): number[] {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  return [...text.matchAll(/spinCount="(\d+)"/g)].map((m) => Number(m[1]));
}

/**
 * The package to read: the bytes themselves, or, for an encrypted file, its decrypted package.
 * A batch's password goes to every file in it, so an unprotected file given one is read as it is.
 */
export async function decryptedPackage(bytes: Uint8Array, fileName: string, kind: PackageKind, password: string | undefined): Promise<Uint8Array> {
  if (!isEncryptedOfficeFile(bytes)) return bytes;
  if (password === undefined || password === '') throw encryptedOfficeError(fileName, kind);
  const spins = spinCounts(bytes);
  if (spins.some((n) => n > MAX_SPIN_COUNT)) {
    throw invalidPackage(kind, fileName, `its encryption asks for ${Math.max(...spins)} hashing rounds (the format allows ${MAX_SPIN_COUNT})`, { stage: 'decrypt' });
  }
  // Loaded only for a protected file: an extraction child that never meets one does not carry it.
  const { default: officeCrypto } = await import('officecrypto-tool');
  let plain: Buffer;
  try {
    plain = await officeCrypto.decrypt(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), { password });
  } catch (e) {
    const reason = e instanceof Error ? e.message : String(e);
    if (/password is incorrect/i.test(reason)) {
      throw new AppError(
        'OFFICE_PASSWORD_INCORRECT',
        `"${fileName}": the password given is not the right one for this protected ${kind.label}. Check it and add the file again.`,
        { fileName },
      );
    }
    if (!/unsupported|unknown cipher|not supported/i.test(reason)) {
      throw invalidPackage(kind, fileName, `its encrypted package is damaged: ${reason}`, { stage: 'decrypt' });
    }
    throw new AppError(
      'OFFICE_ENCRYPTED',
      `"${fileName}" is protected in a way Evidence Desk cannot decrypt (${reason}). Open it in ${kind.app}, remove the password (File › Info › Protect), save a copy, and ingest that copy.`,
      { fileName, stage: 'decrypt', reason },
    );
  }
  return new Uint8Array(plain.buffer, plain.byteOffset, plain.byteLength);
}
