import { Injectable } from '@nestjs/common';
import { Executor, rowsOf } from '@paygrid/platform';
import { uuidV4 } from '@paygrid/ids';
import { ProductDefinition } from './catalogue.defaults';
import { CardArt, cardArtFromRow, Product, productFromRow } from './product.types';

/** All SQL of the catalogue: issuing accounts, their card products and card arts. */
export interface PageRequest {
  pageNumber: number;
  pageSize: number;
}

@Injectable()
export class CatalogueRepository {
  /** True when this call registered the account (its catalogue must then be created in the same transaction). */
  async registerAccount(
    executor: Executor,
    account: { accountId: string; masterAccountId: string; provisionedBy: string; sandboxSlot: number | null },
  ): Promise<boolean> {
    const inserted = await executor.query(
      `INSERT INTO issuing_accounts (account_id, master_account_id, provisioned_by, sandbox_slot) VALUES ($1, $2, $3, $4)
       ON CONFLICT (account_id) DO NOTHING RETURNING account_id`,
      [account.accountId, account.masterAccountId, account.provisionedBy, account.sandboxSlot],
    );
    return rowsOf(inserted).length === 1;
  }

  async insertProducts(executor: Executor, accountId: string, definitions: readonly ProductDefinition[]): Promise<Product[]> {
    const products: Product[] = [];
    for (const definition of definitions) {
      const ceilings = Object.fromEntries(Object.entries(definition.noPinCeilingsMinor).map(([currency, minor]) => [currency, String(minor)]));
      const [row] = rowsOf<Record<string, unknown>>(
        await executor.query(
          `INSERT INTO card_products (product_id, account_id, catalogue_key, mode_type, card_bin, card_scheme, card_forms, currencies,
             max_card_quota, max_cards_per_cardholder, no_pin_ceilings, product_status, kyc_level, required_fields, card_limit_required,
             card_limit_max_minor, allowed_risk_controls, supports_card_art, one_time_requires_expiry, one_time_max_days)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20) RETURNING *`,
          [
            uuidV4(),
            accountId,
            definition.catalogueKey,
            definition.modeType,
            definition.cardBin,
            definition.cardScheme,
            definition.cardForms,
            definition.currencies,
            definition.maxCardQuota,
            definition.maxCardsPerCardholder,
            JSON.stringify(ceilings),
            definition.productStatus,
            definition.kycLevel,
            JSON.stringify(definition.requiredFields),
            definition.cardLimitRequired,
            String(definition.cardLimitMaxMinor),
            definition.allowedRiskControls,
            definition.supportsCardArt,
            definition.oneTimeRequiresExpiry,
            definition.oneTimeMaxDays,
          ],
        ),
      );
      products.push(productFromRow(row));
    }
    return products;
  }

  async insertCardArts(executor: Executor, accountId: string, names: readonly string[]): Promise<void> {
    for (const [index, name] of names.entries()) {
      await executor.query(`INSERT INTO card_arts (card_art_id, account_id, name, is_default) VALUES ($1, $2, $3, $4)`, [
        uuidV4(),
        accountId,
        name,
        index === 0,
      ]);
    }
  }

  async listProducts(executor: Executor, accountId: string, page: PageRequest): Promise<{ items: Product[]; total: number }> {
    const rows = rowsOf<Record<string, unknown>>(
      await executor.query(
        `SELECT *, count(*) OVER () AS total FROM card_products WHERE account_id = $1
          ORDER BY created_at, catalogue_key LIMIT $2 OFFSET $3`,
        [accountId, page.pageSize, (page.pageNumber - 1) * page.pageSize],
      ),
    );
    return { items: rows.map(productFromRow), total: await this.totalOf(executor, rows, 'card_products', accountId) };
  }

  async findProduct(executor: Executor, accountId: string, productId: string, lock = false): Promise<Product | undefined> {
    const [row] = rowsOf<Record<string, unknown>>(
      await executor.query(`SELECT * FROM card_products WHERE product_id = $1 AND account_id = $2${lock ? ' FOR UPDATE' : ''}`, [
        productId,
        accountId,
      ]),
    );
    return row ? productFromRow(row) : undefined;
  }

  async productByKey(executor: Executor, accountId: string, catalogueKey: string): Promise<Product | undefined> {
    const [row] = rowsOf<Record<string, unknown>>(
      await executor.query(`SELECT * FROM card_products WHERE account_id = $1 AND catalogue_key = $2`, [accountId, catalogueKey]),
    );
    return row ? productFromRow(row) : undefined;
  }

  async listCardArts(executor: Executor, accountId: string, page: PageRequest): Promise<{ items: CardArt[]; total: number }> {
    const rows = rowsOf<Record<string, unknown>>(
      await executor.query(
        `SELECT *, count(*) OVER () AS total FROM card_arts WHERE account_id = $1 ORDER BY created_at, name LIMIT $2 OFFSET $3`,
        [accountId, page.pageSize, (page.pageNumber - 1) * page.pageSize],
      ),
    );
    return { items: rows.map(cardArtFromRow), total: await this.totalOf(executor, rows, 'card_arts', accountId) };
  }

  async findCardArt(executor: Executor, accountId: string, cardArtId: string): Promise<CardArt | undefined> {
    const [row] = rowsOf<Record<string, unknown>>(
      await executor.query(`SELECT * FROM card_arts WHERE card_art_id = $1 AND account_id = $2`, [cardArtId, accountId]),
    );
    return row ? cardArtFromRow(row) : undefined;
  }

  async defaultCardArt(executor: Executor, accountId: string): Promise<CardArt | undefined> {
    const [row] = rowsOf<Record<string, unknown>>(
      await executor.query(`SELECT * FROM card_arts WHERE account_id = $1 AND is_default`, [accountId]),
    );
    return row ? cardArtFromRow(row) : undefined;
  }

  /** Moves the account's default to this art (the old default is cleared first: the index allows one). */
  async setDefaultCardArt(executor: Executor, accountId: string, cardArtId: string): Promise<CardArt | undefined> {
    if (!(await this.findCardArt(executor, accountId, cardArtId))) return undefined;
    await executor.query(`UPDATE card_arts SET is_default = false WHERE account_id = $1 AND is_default AND card_art_id <> $2`, [
      accountId,
      cardArtId,
    ]);
    const [row] = rowsOf<Record<string, unknown>>(
      await executor.query(`UPDATE card_arts SET is_default = true WHERE account_id = $1 AND card_art_id = $2 RETURNING *`, [
        accountId,
        cardArtId,
      ]),
    );
    return row ? cardArtFromRow(row) : undefined;
  }

  /** A page past the end has no rows to carry the window count: count separately only then. */
  private async totalOf(executor: Executor, rows: Record<string, unknown>[], table: 'card_products' | 'card_arts', accountId: string) {
    if (rows.length > 0) return Number(rows[0].total);
    const [row] = rowsOf<{ n: number }>(await executor.query(`SELECT count(*)::int AS n FROM ${table} WHERE account_id = $1`, [accountId]));
    return row.n;
  }
}
