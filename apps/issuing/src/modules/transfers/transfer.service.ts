import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Logger } from 'pino';
import {
  Actor,
  CreateIssuingTransferPayload,
  IssuingFundsEvents,
  IssuingTransferCreatedView,
  IssuingTransferView,
  ListIssuingTransfersPayload,
  Page,
} from '@paygrid/contracts';
import { uuidV4 } from '@paygrid/ids';
import { parseMajorNumber } from '@paygrid/money';
import { DurableJobs, envelopeA, Executor, LOGGER, runInTransaction, TransactionContext } from '@paygrid/platform';
import { ISSUING_CONFIG, IssuingConfig } from '../../config';
import { pageOf } from '../../common/paging';
import { recordIssuingEvent } from '../../common/issuing-events';
import { InsufficientFundsError, IssuingBalances, TransferMovement } from '../balances/issuing-balances';
import { sandboxFails } from '../cards/card.rules';
import { presentTransfer } from './transfer.presenter';
import { TransferRepository } from './transfer.repository';
import { IssuingTransfer } from './transfer.types';

/**
 * Transfers between a master account and one of its sub-accounts (wire-compat §11.10; docs/issuing.md,
 * "Transfers"). Accepting one reserves the amount on the source in the request's transaction, so a balance can
 * never be promised twice: a transfer the source cannot cover is refused with nothing stored. The
 * `issuing_transfer` job then completes it (one entry from the source's in-flight bucket onto the destination)
 * or fails it (the reservation back on the source). Each status, PENDING included, is announced once by
 * `issuing.transfer.status_changed`, to the account that created the transfer.
 *
 * Sandbox trigger: an amount whose cents are 13 (`5.13`) makes the transfer FAILED.
 */
export const TRANSFER_JOB = 'issuing_transfer';

export const TransferErrors = {
  notFound: () => envelopeA('invalid_request_error', 'resource_not_found', 'Issuing transfer not found'),
  accountNotFound: (accountId: string) => envelopeA('invalid_request_error', 'account_not_found', `Account ${accountId} not found or deactivated`),
  sameAccount: () => envelopeA('invalid_request_error', 'invalid_transfer_accounts', 'source_account_id and destination_account_id must differ'),
  notMasterAndSub: () =>
    envelopeA('invalid_request_error', 'invalid_transfer_accounts', 'Issuing transfers move money between a master account and one of its sub-accounts'),
  notASide: () => envelopeA('invalid_request_error', 'transfer_not_allowed', 'The acting account must be the source or the destination of the transfer'),
  insufficient: (currency: string) =>
    envelopeA('account_error', 'insufficient_balance', `The source account's ${currency} issuing balance cannot cover the transfer`),
};

@Injectable()
export class TransferService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly transfers: TransferRepository,
    private readonly balances: IssuingBalances,
    private readonly jobs: DurableJobs,
    @Inject(ISSUING_CONFIG) private readonly config: Pick<IssuingConfig, 'ISSUING_TRANSFER_DELAY_MS'>,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async create(tx: TransactionContext, actor: Actor, payload: CreateIssuingTransferPayload): Promise<IssuingTransferCreatedView> {
    const { source_account_id: source, destination_account_id: destination } = payload;
    if (source === destination) throw TransferErrors.sameAccount();
    const accounts = await this.transfers.accounts(tx.manager, [source, destination]);
    for (const accountId of [source, destination]) {
      // Another family's account is answered exactly like a missing one (decisions §1).
      if (accounts.get(accountId)?.masterAccountId !== actor.master_account_id) throw TransferErrors.accountNotFound(accountId);
    }
    if (source !== actor.master_account_id && destination !== actor.master_account_id) throw TransferErrors.notMasterAndSub();
    if (actor.account_id !== source && actor.account_id !== destination) throw TransferErrors.notASide();

    const transfer = await this.transfers.insert(tx.manager, {
      transferId: uuidV4(),
      masterAccountId: actor.master_account_id,
      creatorAccountId: actor.account_id,
      sourceAccountId: source,
      destinationAccountId: destination,
      currency: payload.currency,
      amountMinor: parseMajorNumber(payload.amount),
      remark: payload.remark ?? null,
    });
    try {
      await this.balances.reserveTransfer(tx.manager, movementOf(transfer));
    } catch (error) {
      if (error instanceof InsufficientFundsError) throw TransferErrors.insufficient(transfer.currency);
      throw error;
    }
    await this.announce(tx.manager, transfer);
    await this.jobs.schedule(tx, {
      kind: TRANSFER_JOB,
      subjectId: transfer.transferId,
      dueAt: new Date(Date.now() + this.config.ISSUING_TRANSFER_DELAY_MS),
    });
    return { transfer_id: transfer.transferId, short_transaction_id: transfer.shortTransactionId };
  }

  async retrieve(actor: Actor, transferId: string): Promise<IssuingTransferView> {
    const transfer = await this.transfers.findFor(this.dataSource, actor.account_id, transferId);
    if (!transfer) throw TransferErrors.notFound();
    return presentTransfer(transfer);
  }

  async list(actor: Actor, payload: ListIssuingTransfersPayload): Promise<Page<IssuingTransferView>> {
    const { items, total } = await this.transfers.list(this.dataSource, actor.account_id, {
      status: payload.transfer_status,
      pageNumber: payload.page_number,
      pageSize: payload.page_size,
    });
    return pageOf(items.map(presentTransfer), total, payload.page_size);
  }

  /** The `issuing_transfer` job: PENDING → COMPLETED | FAILED with its money, in one transaction; a repeat does nothing. */
  async process(transferId: string): Promise<void> {
    await runInTransaction(this.dataSource, this.logger, async (tx) => {
      const transfer = await this.transfers.findById(tx.manager, transferId, { lock: true });
      if (!transfer || transfer.status !== 'PENDING') return;
      const failure = sandboxFails(transfer.amountMinor) ? 'sandbox: amount cents 13' : null;
      if (failure === null) await this.balances.settleTransfer(tx.manager, movementOf(transfer));
      else await this.balances.releaseTransfer(tx.manager, movementOf(transfer));
      const finished = await this.transfers.transition(tx.manager, transferId, failure === null ? 'COMPLETE' : 'FAIL', failure);
      await this.announce(tx.manager, finished);
    });
  }

  private announce(executor: Executor, transfer: IssuingTransfer): Promise<void> {
    return recordIssuingEvent(
      executor,
      { accountId: transfer.creatorAccountId, masterAccountId: transfer.masterAccountId },
      IssuingFundsEvents.transferStatusChanged,
      transfer.transferId,
      presentTransfer(transfer),
    );
  }
}

function movementOf(transfer: IssuingTransfer): TransferMovement {
  return {
    transferId: transfer.transferId,
    sourceAccountId: transfer.sourceAccountId,
    destinationAccountId: transfer.destinationAccountId,
    currency: transfer.currency,
    amountMinor: transfer.amountMinor,
  };
}
