import { Injectable } from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import { CardholderStatus } from '@paygrid/contracts';
import { Executor, rowsOf } from '@paygrid/platform';
import { applyTransition } from '@paygrid/state-machine';
import { CardholderErrors } from '../../common/issuing-errors';
import { cardholderKycMachine } from './cardholder.states';
import { Cardholder, cardholderFromRow } from './cardholder.types';

/**
 * All SQL of cardholders. A deleted cardholder is gone for every read (decisions §1: reported like a missing
 * one). Duplicate emails and phones within an account are refused by partial unique indexes, so two racing
 * creates cannot both win.
 */
/** Every field a create or an update writes (status and review count move only through transitions). */
export type CardholderWrite = Omit<Cardholder, 'cardholderId' | 'accountId' | 'masterAccountId' | 'status' | 'reviewCount' | 'createdAt' | 'updatedAt'>;

const UNIQUE_ERRORS: Record<string, () => Error> = {
  cardholders_email_per_account: CardholderErrors.emailDuplicated,
  cardholders_phone_per_account: CardholderErrors.phoneDuplicated,
  cardholders_reference_per_account: CardholderErrors.referenceIdDuplicated,
};

function mapUniqueViolation(error: unknown): unknown {
  if (error instanceof QueryFailedError) {
    const driver = error.driverError as { code?: string; constraint?: string };
    const mapped = driver.code === '23505' && driver.constraint ? UNIQUE_ERRORS[driver.constraint] : undefined;
    if (mapped) return mapped();
  }
  return error;
}

const columns = (write: CardholderWrite) => [
  write.email,
  write.email.toLowerCase(),
  write.firstName,
  write.lastName,
  write.countryCode,
  write.phoneNumber,
  write.phoneNumber,
  write.dateOfBirth,
  write.deliveryAddress === null ? null : JSON.stringify(write.deliveryAddress),
  write.residentialAddress === null ? null : JSON.stringify(write.residentialAddress),
  write.gender,
  write.nationality,
  write.identity === null ? null : JSON.stringify(write.identity),
  write.documentType,
  write.kycMethod,
  write.kycReferenceId,
  write.idvStatus,
  write.idvUrl,
  write.idvUrlExpiresAt,
];

@Injectable()
export class CardholderRepository {
  async insert(executor: Executor, cardholderId: string, owner: { accountId: string; masterAccountId: string }, write: CardholderWrite): Promise<Cardholder> {
    try {
      const [row] = rowsOf<Record<string, unknown>>(
        await executor.query(
          `INSERT INTO cardholders (cardholder_id, account_id, master_account_id, email, email_key, first_name, last_name, country_code, phone_number, phone_key,
             date_of_birth, delivery_address, residential_address, gender, nationality, identity, document_type, kyc_method, kyc_reference_id,
             idv_status, idv_url, idv_url_expires_at, cardholder_status, review_count)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, 'PENDING', 1) RETURNING *`,
          [cardholderId, owner.accountId, owner.masterAccountId, ...columns(write)],
        ),
      );
      return cardholderFromRow(row);
    } catch (error) {
      throw mapUniqueViolation(error);
    }
  }

  async update(executor: Executor, cardholderId: string, write: CardholderWrite): Promise<Cardholder> {
    try {
      const [row] = rowsOf<Record<string, unknown>>(
        await executor.query(
          `UPDATE cardholders SET email = $2, email_key = $3, first_name = $4, last_name = $5, country_code = $6, phone_number = $7,
             phone_key = $8, date_of_birth = $9, delivery_address = $10, residential_address = $11, gender = $12, nationality = $13,
             identity = $14, document_type = $15, kyc_method = $16, kyc_reference_id = $17, idv_status = $18, idv_url = $19,
             idv_url_expires_at = $20, updated_at = now()
           WHERE cardholder_id = $1 RETURNING *`,
          [cardholderId, ...columns(write)],
        ),
      );
      return cardholderFromRow(row);
    } catch (error) {
      throw mapUniqueViolation(error);
    }
  }

  async find(executor: Executor, accountId: string, cardholderId: string, options: { lock?: boolean } = {}): Promise<Cardholder | undefined> {
    const [row] = rowsOf<Record<string, unknown>>(
      await executor.query(
        `SELECT * FROM cardholders WHERE cardholder_id = $1 AND account_id = $2 AND deleted_at IS NULL${options.lock ? ' FOR UPDATE' : ''}`,
        [cardholderId, accountId],
      ),
    );
    return row ? cardholderFromRow(row) : undefined;
  }

  async findById(executor: Executor, cardholderId: string, options: { lock?: boolean } = {}): Promise<Cardholder | undefined> {
    const [row] = rowsOf<Record<string, unknown>>(
      await executor.query(`SELECT * FROM cardholders WHERE cardholder_id = $1 AND deleted_at IS NULL${options.lock ? ' FOR UPDATE' : ''}`, [
        cardholderId,
      ]),
    );
    return row ? cardholderFromRow(row) : undefined;
  }

  async list(
    executor: Executor,
    accountId: string,
    query: { status?: CardholderStatus; pageNumber: number; pageSize: number },
  ): Promise<{ items: (Cardholder & { numberOfCards: number })[]; total: number }> {
    const rows = rowsOf<Record<string, unknown>>(
      await executor.query(
        `SELECT h.*, count(*) OVER () AS total, (SELECT count(*)::int FROM cards c WHERE c.cardholder_id = h.cardholder_id) AS number_of_cards
           FROM cardholders h
          WHERE h.account_id = $1 AND h.deleted_at IS NULL AND ($2::text IS NULL OR h.cardholder_status = $2)
          ORDER BY h.created_at DESC, h.cardholder_id LIMIT $3 OFFSET $4`,
        [accountId, query.status ?? null, query.pageSize, (query.pageNumber - 1) * query.pageSize],
      ),
    );
    let total = rows.length > 0 ? Number(rows[0].total) : 0;
    if (rows.length === 0 && query.pageNumber > 1) {
      const [count] = rowsOf<{ n: number }>(
        await executor.query(
          `SELECT count(*)::int AS n FROM cardholders WHERE account_id = $1 AND deleted_at IS NULL AND ($2::text IS NULL OR cardholder_status = $2)`,
          [accountId, query.status ?? null],
        ),
      );
      total = count.n;
    }
    return { items: rows.map((row) => ({ ...cardholderFromRow(row), numberOfCards: Number(row.number_of_cards) })), total };
  }

  async numberOfCards(executor: Executor, cardholderId: string, statuses?: readonly string[]): Promise<number> {
    const [row] = rowsOf<{ n: number }>(
      await executor.query(
        `SELECT count(*)::int AS n FROM cards WHERE cardholder_id = $1 AND ($2::text[] IS NULL OR card_status = ANY($2))`,
        [cardholderId, statuses ? [...statuses] : null],
      ),
    );
    return row.n;
  }

  async softDelete(executor: Executor, cardholderId: string): Promise<void> {
    await executor.query(`UPDATE cardholders SET deleted_at = now(), updated_at = now() WHERE cardholder_id = $1 AND deleted_at IS NULL`, [cardholderId]);
  }

  /** KYC status moves through the machine: a conditional update (architecture rule 5). */
  async transition(
    executor: Executor,
    cardholderId: string,
    event: (typeof cardholderKycMachine.events)[number],
    set: Record<string, unknown> = {},
  ): Promise<Cardholder> {
    const row = await applyTransition(executor, cardholderKycMachine, {
      table: 'cardholders',
      id: cardholderId,
      idColumn: 'cardholder_id',
      statusColumn: 'cardholder_status',
      event,
      set: { ...set, updated_at: new Date() },
    });
    return cardholderFromRow(row);
  }

  async saveDocument(executor: Executor, cardholderId: string, kind: string, content: Buffer, sha256: string): Promise<void> {
    await executor.query(
      `INSERT INTO cardholder_documents (cardholder_id, kind, content, sha256) VALUES ($1, $2, $3, $4)
       ON CONFLICT (cardholder_id, kind) DO UPDATE SET content = EXCLUDED.content, sha256 = EXCLUDED.sha256, approved = false, created_at = now()`,
      [cardholderId, kind, content, sha256],
    );
  }

  async approvedDocumentHashes(executor: Executor, cardholderId: string): Promise<Map<string, string>> {
    const rows = rowsOf<{ kind: string; sha256: string }>(
      await executor.query(`SELECT kind, sha256 FROM cardholder_documents WHERE cardholder_id = $1 AND approved`, [cardholderId]),
    );
    return new Map(rows.map((row) => [row.kind, row.sha256]));
  }

  async approveDocuments(executor: Executor, cardholderId: string): Promise<void> {
    await executor.query(`UPDATE cardholder_documents SET approved = true WHERE cardholder_id = $1`, [cardholderId]);
  }
}
