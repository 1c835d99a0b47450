import { Inject, Injectable } from '@nestjs/common';
import { Actor, SimulatedDepositView, SimulateDepositPayload } from '@paygrid/contracts';
import { uuidV4 } from '@paygrid/ids';
import { parseMajorNumber } from '@paygrid/money';
import { envelopeA, TransactionContext } from '@paygrid/platform';
import { ISSUING_CONFIG, IssuingConfig } from '../../config';
import { issuingAmountText } from '../balances/balance-transaction.types';
import { IssuingBalances } from '../balances/issuing-balances';
import { Deposit, DepositRepository } from './deposit.repository';

/**
 * The deposit simulator (wire-compat §12 `deposits.simulate`, sandbox only): money arriving from outside credits
 * the acting account's issuing balance at once, as one ledger entry from its `sandbox_funding` counterpart, and
 * the deposit is recorded COMPLETED in the same transaction (the command ledger applies it once per request).
 */
@Injectable()
export class DepositService {
  constructor(
    private readonly deposits: DepositRepository,
    private readonly balances: IssuingBalances,
    @Inject(ISSUING_CONFIG) private readonly config: Pick<IssuingConfig, 'NODE_ENV'>,
  ) {}

  async simulate(tx: TransactionContext, actor: Actor, payload: SimulateDepositPayload): Promise<SimulatedDepositView> {
    if (this.config.NODE_ENV === 'production') {
      throw envelopeA('invalid_request_error', 'sandbox_only', 'The deposit simulator is available in the sandbox only');
    }
    const sender = {
      sender_swift_code: payload.sender_swift_code,
      ...(payload.sender_name !== undefined ? { sender_name: payload.sender_name } : {}),
      ...(payload.sender_country !== undefined ? { sender_country: payload.sender_country } : {}),
      ...(payload.sender_account_number !== undefined ? { sender_account_number: payload.sender_account_number } : {}),
    };
    const deposit = await this.deposits.insert(tx.manager, {
      depositId: uuidV4(),
      accountId: actor.account_id,
      masterAccountId: actor.master_account_id,
      currency: payload.currency,
      amountMinor: parseMajorNumber(payload.amount),
      status: 'COMPLETED',
      sender,
      receiverAccountNumber: payload.receiver_account_number ?? null,
    });
    await this.balances.deposit(tx.manager, deposit);
    return presentDeposit(deposit);
  }
}

function presentDeposit(deposit: Deposit): SimulatedDepositView {
  return {
    deposit_id: deposit.depositId,
    short_reference_id: deposit.shortReferenceId,
    amount: issuingAmountText(deposit.amountMinor),
    currency: deposit.currency,
    deposit_status: deposit.status,
    create_time: deposit.createdAt.toISOString(),
    ...(deposit.completedAt ? { complete_time: deposit.completedAt.toISOString() } : {}),
    ...(deposit.receiverAccountNumber ? { receiver_account_number: deposit.receiverAccountNumber } : {}),
    sender: deposit.sender,
  };
}
