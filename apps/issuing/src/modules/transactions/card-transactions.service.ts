import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Actor, CardTransactionView, ListCardTransactionsPayload, Page } from '@paygrid/contracts';
import { CardErrors } from '../../common/issuing-errors';
import { pageOf } from '../../common/paging';
import { CardRepository } from '../cards/card.repository';
import { TransactionErrors } from './card-transaction.errors';
import { presentCardTransaction } from './card-transaction.presenter';
import { CardTransactionRepository } from './card-transaction.repository';

/** The card transactions API (wire-compat §11.1, §11.11): list with its filters, retrieve; scoped to the actor. */
@Injectable()
export class CardTransactionsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly transactions: CardTransactionRepository,
    private readonly cards: CardRepository,
  ) {}

  async list(actor: Actor, query: ListCardTransactionsPayload): Promise<Page<CardTransactionView>> {
    // Another account's card is a missing one (decisions §1), not an empty page.
    if (query.card_id && !(await this.cards.find(this.dataSource, actor.account_id, query.card_id))) throw CardErrors.notFound();
    const { items, total } = await this.transactions.list(this.dataSource, actor.account_id, {
      cardId: query.card_id,
      from: query.start_time === undefined ? undefined : new Date(query.start_time),
      before: query.end_time === undefined ? undefined : new Date(query.end_time),
      pageNumber: query.page_number,
      pageSize: query.page_size,
    });
    return pageOf(items.map(presentCardTransaction), total, query.page_size);
  }

  async retrieve(actor: Actor, transactionId: string): Promise<CardTransactionView> {
    const transaction = await this.transactions.find(this.dataSource, actor.account_id, transactionId);
    if (!transaction) throw TransactionErrors.notFound();
    return presentCardTransaction(transaction);
  }
}
