import { Injectable } from '@nestjs/common';
import {
  ActivateCardPayload,
  AssignCardPayload,
  BulkCreateCardsPayload,
  CardAmountPayload,
  CardOrderRef,
  CardRef,
  CreateCardPayload,
  ElevateLimitPayload,
  IssuingCommand,
  ListCardsPayload,
  ResetPinPayload,
  UpdateCardPayload,
  UpdateCardStatusPayload,
} from '@paygrid/contracts';
import { CommandContext, HandleCommand, HandleJob, WriteContext } from '@paygrid/platform';
import { CardOrderService } from './card-order.service';
import { CARD_ORDER_JOB, CardService } from './card.service';

/** Card and card-order commands (thin), and the card-order job. */
@Injectable()
export class CardCommands {
  constructor(
    private readonly cards: CardService,
    private readonly orders: CardOrderService,
  ) {}

  @HandleCommand(IssuingCommand.createCard)
  create(payload: CreateCardPayload, context: WriteContext) {
    return this.cards.create(context.tx, context.requireActor(), payload);
  }

  @HandleCommand(IssuingCommand.listCards)
  list(payload: ListCardsPayload, context: CommandContext) {
    return this.cards.list(context.requireActor(), payload);
  }

  @HandleCommand(IssuingCommand.retrieveCard)
  retrieve(payload: CardRef, context: CommandContext) {
    return this.cards.retrieve(context.requireActor(), payload.card_id);
  }

  @HandleCommand(IssuingCommand.updateCard)
  update(payload: UpdateCardPayload, context: WriteContext) {
    return this.cards.update(context.tx, context.requireActor(), payload);
  }

  @HandleCommand(IssuingCommand.updateCardStatus)
  updateStatus(payload: UpdateCardStatusPayload, context: WriteContext) {
    return this.cards.updateStatus(context.tx, context.requireActor(), payload);
  }

  @HandleCommand(IssuingCommand.activateCard)
  activate(payload: ActivateCardPayload, context: WriteContext) {
    return this.cards.activate(context.tx, context.requireActor(), payload);
  }

  @HandleCommand(IssuingCommand.assignCard)
  assign(payload: AssignCardPayload, context: WriteContext) {
    return this.cards.assign(context.tx, context.requireActor(), payload);
  }

  @HandleCommand(IssuingCommand.resetPin)
  resetPin(payload: ResetPinPayload, context: WriteContext) {
    return this.cards.resetPin(context.tx, context.requireActor(), payload);
  }

  @HandleCommand(IssuingCommand.enrolNetworkProtection)
  enrol(payload: CardRef, context: WriteContext) {
    return this.cards.setNetworkProtection(context.tx, context.requireActor(), payload.card_id, true);
  }

  @HandleCommand(IssuingCommand.removeNetworkProtection)
  removeProtection(payload: CardRef, context: WriteContext) {
    return this.cards.setNetworkProtection(context.tx, context.requireActor(), payload.card_id, false);
  }

  @HandleCommand(IssuingCommand.bulkCreateCards)
  bulkCreate(payload: BulkCreateCardsPayload, context: WriteContext) {
    return this.cards.bulkCreate(context.tx, context.requireActor(), payload);
  }

  @HandleCommand(IssuingCommand.retrieveSecureDetails)
  secure(payload: CardRef, context: CommandContext) {
    return this.cards.secureDetails(context.requireActor(), payload.card_id);
  }

  @HandleCommand(IssuingCommand.createPanToken)
  panToken(payload: CardRef, context: WriteContext) {
    return this.cards.panToken(context.tx, context.requireActor(), payload.card_id);
  }

  @HandleCommand(IssuingCommand.rechargeCard)
  recharge(payload: CardAmountPayload, context: WriteContext) {
    return this.orders.recharge(context.tx, context.requireActor(), payload);
  }

  @HandleCommand(IssuingCommand.withdrawCard)
  withdraw(payload: CardAmountPayload, context: WriteContext) {
    return this.orders.withdraw(context.tx, context.requireActor(), payload);
  }

  @HandleCommand(IssuingCommand.elevateLimit)
  elevateLimit(payload: ElevateLimitPayload, context: WriteContext) {
    return this.orders.elevateLimit(context.tx, context.requireActor(), payload);
  }

  @HandleCommand(IssuingCommand.retrieveCardOrder)
  retrieveOrder(payload: CardOrderRef, context: CommandContext) {
    return this.orders.retrieveOrder(context.requireActor(), payload.card_order_id);
  }

  @HandleJob(CARD_ORDER_JOB)
  processOrder(cardOrderId: string): Promise<void> {
    return this.orders.process(cardOrderId);
  }
}
